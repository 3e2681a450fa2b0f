/**
 * The last pass of the renderer (render.ts) over its top-level Markdown blocks: furniture lines,
 * consent notices, repeated blocks and labels that head nothing go (rules in boilerplate-lines.ts).
 */
import { AUTHOR_NOTE_TAIL, furnitureBlock, isClosingNote, isConsentNotice, isExcerptList, isHeadlineList, isShortItemList } from './boilerplate-lines.ts';

/** Longest block (characters of Markdown) that is said once when the page says it twice in a row. */
const REPEAT_MAX_CHARS = 300;

/**
 * Without short standalone furniture lines, consent notices, author notes among the last blocks,
 * lists of bare headlines or of excerpts cut off with an ellipsis, related-links labels and the
 * short-item list after such a label (boilerplate-lines.ts), the second of two equal short blocks
 * in a row, and `labels` (headings of a block whose class says `header`) that head nothing: last,
 * or followed by a heading of their level or above (the box they labelled was left out).
 */
export function dropFurniture(blocks: readonly string[], labels: ReadonlySet<number>): string[] {
  const kept: string[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i]!;
    if (labels.has(i) && headsNothing(b, blocks[i + 1])) continue;
    // A short block said twice in a row is said once (a caption printed for the collapsed and the
    // open viewer); a long paragraph said twice stays as the page has it.
    if (b.length <= REPEAT_MAX_CHARS && b === blocks[i - 1]) continue;
    const kind = furnitureBlock(b);
    if (kind === 'line' || isHeadlineList(b) || isExcerptList(b) || (i >= blocks.length - AUTHOR_NOTE_TAIL && isClosingNote(b))) continue;
    if (b.charCodeAt(0) !== 0x23 && !b.includes('\n') && isConsentNotice(b)) continue;
    if (kind === 'label') {
      if (i + 1 < blocks.length && isShortItemList(blocks[i + 1]!)) i++;
      continue;
    }
    kept.push(b);
  }
  // A heading that closes the content heads nothing in it: the label of a box left out, or a
  // closing prompt ("Not the answer you're looking for? Browse other questions ...").
  if (kept.length > 1 && kept[kept.length - 1]!.charCodeAt(0) === 0x23 /* # */) kept.pop();
  // A rule separates blocks: one that closes the content (its footer left out) or follows another separates nothing.
  for (let i = kept.length - 1; i >= 0; i--) if (kept[i] === '---' && (i === kept.length - 1 || i === 0 || kept[i - 1] === '---')) kept.splice(i, 1);
  return kept;
}

/** Heading `b` is followed by nothing, or by a heading of its level or above. */
function headsNothing(b: string, next: string | undefined): boolean {
  if (next === undefined) return true;
  const level = /^#*/.exec(b)![0].length;
  const nextLevel = /^#*/.exec(next)![0].length;
  return nextLevel > 0 && nextLevel <= level;
}
