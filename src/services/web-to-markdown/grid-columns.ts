/** Columns of a page grid (Bootstrap, Foundation): the article's wide column and a sidebar beside it (score.ts, siblings.ts). */
import type { ElementNode } from './dom.ts';

/**
 * A column of a page grid and its width in twelfths: Bootstrap `col-md-8`, `col-4`, Foundation
 * `large-8`, Bootstrap 2 `span8`. Of several (`col-12 col-lg-8`), the narrowest: the desktop layout.
 */
const GRID_COLUMN = /(?:^|\s)(?:col-(?:(?:xs|sm|md|lg|xl|xxl)-)?|(?:small|medium|large)-|span)(\d{1,2})(?=\s|$)/g;

function gridWidth(el: ElementNode): number {
  const cls = el.attrs.class;
  if (cls === undefined || (!cls.includes('col') && !cls.includes('span') && !cls.includes('large-') && !cls.includes('medium-'))) return 0;
  let width = 0;
  for (const m of cls.matchAll(GRID_COLUMN)) {
    const w = Number(m[1]);
    if (w >= 1 && w <= 12 && (width === 0 || w < width)) width = w;
  }
  return width;
}

/** Widest column (twelfths) read as a sidebar beside the article's, and narrowest read as the article's. */
const SIDE_COLUMN = 4;
const WIDE_COLUMN = 8;

/** `el` is a grid column of WIDE_COLUMN twelfths or more with a column of SIDE_COLUMN or fewer beside it. */
export function wideColumnBesideSide(el: ElementNode): boolean {
  if (el.parent === null || gridWidth(el) < WIDE_COLUMN) return false;
  for (const s of el.parent.children) {
    if (typeof s === 'string' || s === el) continue;
    const w = gridWidth(s);
    if (w > 0 && w <= SIDE_COLUMN) return true;
  }
  return false;
}

/** `sib` is a grid column of SIDE_COLUMN twelfths or fewer beside `top`, a column of WIDE_COLUMN or more. */
export function sideColumnOf(sib: ElementNode, top: ElementNode): boolean {
  const w = gridWidth(sib);
  return w > 0 && w <= SIDE_COLUMN && gridWidth(top) >= WIDE_COLUMN;
}

/**
 * The wide column beside the side column that holds `el` (`el` or an ancestor is a grid column of
 * SIDE_COLUMN twelfths or fewer next to one of WIDE_COLUMN or more), or null.
 */
export function wideColumnBeside(el: ElementNode): ElementNode | null {
  for (let e: ElementNode | null = el; e !== null && e.parent !== null; e = e.parent) {
    const w = gridWidth(e);
    if (w === 0) continue;
    if (w > SIDE_COLUMN) return null;
    for (const s of e.parent.children) if (typeof s !== 'string' && s !== e && gridWidth(s) >= WIDE_COLUMN) return s;
    return null;
  }
  return null;
}
