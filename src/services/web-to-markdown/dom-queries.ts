/** Walks over the small DOM of dom.ts that the scoring (score.ts), its fallback and the renderer share. */
import type { ElementNode, Node } from './dom.ts';

/** The only child element of `el` when it has no text of its own beside it, else null. */
export function soleChild(el: ElementNode): ElementNode | null {
  let only: ElementNode | null = null;
  for (const c of el.children) {
    if (typeof c === 'string') {
      if (c.trim() !== '') return null;
      continue;
    }
    if (only !== null) return null;
    only = c;
  }
  return only;
}

/**
 * The element under single-child wrappers (no text of their own; the line breaks and indentation
 * between the tags of pretty-printed markup are none, though `ownText` counts a space for them).
 */
export function unwrap(el: ElementNode): ElementNode {
  let e = el;
  for (let only = soleChild(e); only !== null; only = soleChild(e)) e = only;
  return e;
}

export function isAncestor(anc: ElementNode, el: ElementNode): boolean {
  for (let p = el.parent; p !== null; p = p.parent) if (p === anc) return true;
  return false;
}

/** The first element under `el`, in document order, that `test` accepts. */
export function firstMatching(el: ElementNode, test: (el: ElementNode) => boolean): ElementNode | null {
  for (const c of el.children) {
    if (typeof c === 'string') continue;
    if (test(c)) return c;
    const found = firstMatching(c, test);
    if (found !== null) return found;
  }
  return null;
}

export function bodyOf(root: ElementNode): ElementNode {
  // Breadth first, with a read index: shift() and push(...children) cost O(n) per call on a page
  // of many elements (and the spread throws past ~120,000 children).
  const queue: Node[] = root.children.slice();
  for (let head = 0; head < queue.length; head++) {
    const n = queue[head]!;
    if (typeof n === 'string') continue;
    if (n.tag === 'body') return n;
    for (const c of n.children) queue.push(c);
  }
  return root;
}

/** Plain text of an element, whitespace collapsed. */
export function textOf(el: ElementNode): string {
  let out = '';
  const walk = (n: ElementNode) => {
    for (const c of n.children) {
      if (typeof c === 'string') out += c;
      else walk(c);
    }
  };
  walk(el);
  return out.replace(/\s+/g, ' ').trim();
}
