/**
 * Boilerplate the extraction DOM (dom.ts) marks once the page is parsed, from what an element holds
 * rather than its names: comment and related-links sections by their heading, comment threads by
 * their reply controls, and on a discussion page the replies named as comments.
 */
import { RELATED_LABEL } from './boilerplate-lines.ts';
import type { ElementNode } from './dom.ts';
import { isUnlikely, PROTECTED, TAG_BITS, textOfShallow } from './parse-rules.ts';

/**
 * A comment thread by its heading, as a reader tells it on a page whose class names say
 * nothing: "34 responses to “…”", "Comments (12)", "Top Rated Comments", "Leave a Reply", "Kommentare", "评论". The
 * whole heading must read so: "Comments on the draft rule" does not. A bare singular "Comment" or
 * "Kommentar" is the kicker of an opinion piece, not a thread (with a count it is one: "1
 * Kommentar"). A box of other pages' links is told by its label (boilerplate-lines.ts
 * RELATED_LABEL, MORE_HEADING).
 */
const COMMENTS_HEADING = new RegExp(
  '^(?:(?:\\d[\\d,.]*|one|no)\\s+(?:comments?|responses?|replies|thoughts?|reactions?)(?:\\s+(?:to|on)\\s.+)?' +
    '|(?:top|most|best|featured|latest|newest|recent|popular|selected|reader|user|visitor)s?[\'’]?(?:\\s+(?:rated|liked|voted|recommended|recent))?\\s+comments?(?:\\s*\\(\\d[\\d,.]*\\))?' +
    '|comments(?:\\s*\\(\\d[\\d,.]*\\))?|comment\\s*\\(\\d[\\d,.]*\\)' +
    '|(?:leave|post|add|write|submit)\\s+(?:a|an|your)\\s+(?:reply|comment|response)|join the (?:conversation|discussion)|comments are closed' +
    '|(?:\\d+\\s+)?(?:leser)?kommentare(?:\\s*\\(\\d+\\))?|\\d+\\s+(?:leser)?kommentar|(?:leser)?kommentar\\s*\\(\\d+\\)|leserkommentar|kommentar (?:schreiben|verfassen|hinterlassen)|schreibe(?:n sie)? einen kommentar' +
    '|(?:\\d+\\s+)?(?:commentaires?|comentarios?|commenti|comentários?|reacties?|komentarze?|kommentarer|yorumlar|комментари[йяеи]в?|댓글)(?:\\s*[(（]?\\d+[)）]?개?)?' +
    '|(?:laisser|laissez|ajouter|écrire) un commentaire|(?:deja|dejar|deje|escribe) (?:un|tu|su) comentario|lascia un commento|deixe (?:um|seu) comentário|laat een reactie achter' +
    '|(?:网友|读者|最新|热门)?评论(?:\\s*[(（]\\d+[)）])?|发表评论|コメント(?:\\s*[(（]\\d+件?[)）])?|コメントを(?:書く|残す|投稿する)|\\d+件のコメント' +
    // "《Title》已有1件评论", "12条评论": a count of comments, after the post's title or alone.
    '|.{0,80}?(?:已有|共有|共)\\s*\\d+\\s*[件条條个個]?(?:评论|評論)|\\d+\\s*[件条條个個]?(?:评论|評論))[.:!]?$',
  'iu',
);
/**
 * Headings only: "More <Site or Section>" in capitals ("More Washington Examiner", "More Politics")
 * and "More in/on/about …"; a paragraph may open with such words, a section's heading does not.
 */
const MORE_HEADING = /^(?:more|More|MORE)(?: (?:in|on|about) .{1,60}|(?: \p{Lu}[\p{L}\p{N}.’'&-]*){1,4})$/u;

const LABEL_WITH_TITLE_RE = /[:：]\s*\S/;
/** Longest heading text read as a section's label. */
const SECTION_HEADING_CHARS = 120;

/**
 * The block a comment or related-links heading opens (`COMMENTS_HEADING`, `RELATED_LABEL`, `MORE_HEADING`) is
 * unlikely: the smallest wrapper, up to three levels, that the heading opens (nothing but white
 * space before it) and that holds more than the heading. A comment heading that opens no wrapper
 * (it stands among the article's blocks, the thread after it) takes the blocks after it with it.
 */
export function markSectionByHeading(h: ElementNode, discussion: boolean, indexIn: ChildIndex = childIndex()): void {
  // Already in a thread an earlier heading of its parent took (each parent's blocks are walked once).
  if (h.headed) return;
  const text = textOfShallow(h);
  if (text.length > SECTION_HEADING_CHARS * 2) return;
  const label = text.replace(/\s+/g, ' ').trim();
  if (label === '' || label.length > SECTION_HEADING_CHARS) return;
  // On a forum or Q&A page the replies under "23 replies" are the content.
  const comments = !discussion && COMMENTS_HEADING.test(label);
  // A label alone: "Related post: <title>" or "Read more: …" may be a story's own heading.
  if (!comments && !((RELATED_LABEL.test(label) && !LABEL_WITH_TITLE_RE.test(label)) || MORE_HEADING.test(label))) return;
  const visible = label.replace(/\s/g, '').length;
  let box = h;
  for (let level = 0; level < 3; level++) {
    const parent = box.parent;
    if (parent === null || parent.parent === null || ((TAG_BITS.get(parent.tag) ?? 0) & PROTECTED) !== 0 || !opens(parent, box)) break;
    if (visibleOver(parent, visible)) {
      parent.unlikely = true;
      parent.headed = true;
      return;
    }
    box = parent;
  }
  if (!comments || h.parent === null) return;
  // A headline after the label makes it a kicker over the article, whatever it says; a heading
  // of its rank or above after it makes it a section of a document (a style guide's "Comments",
  // then "Errors"): a thread runs to the end.
  const siblings = h.parent.children;
  const at = indexIn(h.parent, h);
  const rank = HEADING_RANK.indexOf(h.tag);
  for (let i = at + 1; i < siblings.length; i++) {
    const c = siblings[i]!;
    if (typeof c !== 'string' && (c.tag === 'h1' || (c.tag === 'header' && hasHeadline(c)) || (rank !== -1 && HEADING_RANK.indexOf(c.tag) !== -1 && HEADING_RANK.indexOf(c.tag) <= rank))) return;
  }
  for (let i = at; i < siblings.length; i++) {
    const c = siblings[i]!;
    if (typeof c !== 'string') c.unlikely = c.headed = true;
  }
}

/** The index of a child among its parent's children (`childIndex`). */
export type ChildIndex = (parent: ElementNode, child: ElementNode) => number;

/**
 * A child's index among its parent's children, from a map built once per parent: a parse's
 * headings of one parent would each search from the first child, quadratic in a parent of
 * thousands of them. One per parse (dom.ts), once its tree is complete.
 */
export function childIndex(): ChildIndex {
  const byParent = new Map<ElementNode, Map<ElementNode, number>>();
  return (parent, child) => {
    let indexes = byParent.get(parent);
    if (indexes === undefined) {
      indexes = new Map();
      for (let i = 0; i < parent.children.length; i++) {
        const c = parent.children[i]!;
        if (typeof c !== 'string') indexes.set(c, i);
      }
      byParent.set(parent, indexes);
    }
    return indexes.get(child) ?? parent.children.indexOf(child);
  };
}

const HEADING_RANK = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];

function hasHeadline(el: ElementNode): boolean {
  for (const c of el.children) if (typeof c !== 'string' && (c.tag === 'h1' || hasHeadline(c))) return true;
  return false;
}

/**
 * A comment's reply control: a link or button that says only "Reply", in the languages the
 * boilerplate vocabulary covers.
 */
const REPLY_CONTROL = /^(?:reply|antworten|répondre|responder|rispondi|odpowiedz|ответить|beantwoorden|reageer|svara|svar|yanıtla|cevapla|回复|回覆|返信|답글|답글 달기|답글쓰기)$/iu;
/** Longest text read as a reply control. */
export const REPLY_CONTROL_CHARS = 40;
export const isReplyControl = (text: string): boolean => text.length <= REPLY_CONTROL_CHARS && REPLY_CONTROL.test(text.replace(/\s+/g, ' ').trim());
/** How many levels above a reply control its comment's block may start. */
const REPLY_ITEM_LEVELS = 5;
/** Comments that make a thread: a list of fewer is a reply form or a single quoted remark. */
const REPLY_THREAD_MIN = 3;

/**
 * A comment thread told by its reply controls, on a page whose class names and headings say
 * nothing: where 3+ sibling blocks each hold a "Reply" link or button (`replies`: the links that
 * may be one, and the elements that hold a reply button), each such block is
 * unlikely (left out of the strict view, as a block named `comments` is); their siblings without
 * one (the article's paragraphs, when comments follow them in one wrapper) stay. Not on a discussion page, whose
 * replies are its content; a forum thread that does not say it is one has every post in such
 * items, so the strict view finds too little and the lenient view (which keeps them) is taken.
 */
export function markReplyThreads(replies: readonly ElementNode[]): void {
  let items: Map<ElementNode, Set<ElementNode>> | undefined;
  for (const c of replies) {
    // A link is a control when it says "Reply"; a button's text was read as it was skipped, and
    // `c` is the element that holds it.
    if (c.tag === 'a' && !isReplyControl(textOfShallow(c))) continue;
    let item = c;
    for (let level = 0; level < REPLY_ITEM_LEVELS && item.parent !== null && item.parent.parent !== null; level++) {
      const thread = item.parent;
      let seen = (items ??= new Map()).get(thread);
      if (seen === undefined) items.set(thread, (seen = new Set<ElementNode>()));
      seen.add(item);
      item = thread;
    }
  }
  if (items === undefined) return;
  for (const replied of items.values()) if (replied.size >= REPLY_THREAD_MIN) for (const item of replied) item.unlikely = true;
}

/** `el` holds more than `n` characters other than white space (counts only that far). */
function visibleOver(el: ElementNode, n: number): boolean {
  let left = n;
  const walk = (e: ElementNode): boolean => {
    for (const c of e.children) {
      if (typeof c !== 'string') {
        if (walk(c)) return true;
        continue;
      }
      for (let i = 0; i < c.length; i++) if (c.charCodeAt(i) > 32 && c.charCodeAt(i) !== 0xa0 && --left < 0) return true;
    }
    return false;
  };
  return walk(el);
}

/** `child` is the first element of `parent`, with only white space before it. */
function opens(parent: ElementNode, child: ElementNode): boolean {
  for (const c of parent.children) {
    if (c === child) return true;
    if (typeof c !== 'string' || c.trim() !== '') return false;
  }
  return false;
}

/** Comment names in a class or id: how blogs name their comment threads, and some forums their replies. */
const COMMENT_HINT = /comment|replies|remark/i;

/**
 * On a discussion page (`page.discussion`), the blocks named as comments that hold prose in
 * paragraphs (a reply post, the thread of such replies) are replies: not unlikely, and their
 * comment names are not read as boilerplate (class-hints.ts). A forum that names its replies
 * comments (Drupal's forum, whose replies are comment entities) keeps them; remarks of a line or
 * two under a post (Stack Exchange's comment list: text in spans, no paragraphs) stay out.
 * `isProse` is measure.ts's test, passed in by core.ts; `measure` must have run.
 */
export function markReplies(el: ElementNode, isProse: (el: ElementNode) => boolean): void {
  for (const c of el.children) {
    if (typeof c === 'string' || c.textLen < 200) continue;
    const hint = (c.attrs.class ?? '') + ' ' + (c.anchorId ? '' : (c.attrs.id ?? ''));
    if (COMMENT_HINT.test(hint) && isProse(c)) {
      c.reply = true;
      c.unlikely = isUnlikely(c.tag, TAG_BITS.get(c.tag) ?? 0, { class: hint.replace(/\S*(?:comment|replies|remark)\S*/gi, ' ') });
    }
    markReplies(c, isProse);
  }
}
