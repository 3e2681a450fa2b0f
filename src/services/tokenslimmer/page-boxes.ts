/**
 * The boxes of a page pasted as text (boilerplate.ts): a newsletter box, a feedback widget, a site
 * index, related-story runs, a pager, an "On this page" list, and labels left beside dropped chrome.
 */
import { chromeKey, isKnownLabel, linkText, RELATED_HEADINGS } from './page-labels.ts';
import { LABEL_END_RE } from './page-menus.ts';

/** Headings of a newsletter sign-up box (keys of chromeKey). */
const SIGNUP_HEADINGS: ReadonlySet<string> = new Set([
  'sign up for our newsletter', 'sign up for our newsletters', 'subscribe to our newsletter', 'subscribe to our newsletters',
  'newsletter sign up', 'newsletter signup', 'newsletter', 'newsletters', 'get our newsletter', 'get the newsletter',
  'join our newsletter', 'join our mailing list', 'join the mailing list', 'sign up for updates', 'subscribe for updates',
  'stay in the loop', 'stay informed', 'stay up to date', 'never miss a story', 'newsletter abonnieren', 'abonnez-vous à notre newsletter',
]);
/** The e-mail field of such a box: under the bare heading "Newsletter" (a document's section too) one is needed. */
const SIGNUP_EMAIL_FIELDS: ReadonlySet<string> = new Set([
  'email', 'e-mail', 'email address', 'e-mail address', 'your email', 'your email address', 'your e-mail address',
  'enter your email', 'enter your email address', 'enter your e-mail address', 'enter email', 'enter email address', 'e-mail-adresse',
]);
const BARE_SIGNUP_HEADINGS: ReadonlySet<string> = new Set(['newsletter', 'newsletters']);
/** The field labels and buttons of such a box. */
const SIGNUP_FIELDS: ReadonlySet<string> = new Set([
  ...SIGNUP_EMAIL_FIELDS,
  'first name', 'last name', 'name', 'sign up', 'signup', 'subscribe', 'subscribe now', 'sign up now', 'sign me up', 'submit',
  'join', 'join now', 'abonnieren', "s'abonner", 'suscribirse', 'suscríbete',
]);
/** A button's link to nothing on the page: `[Sign up](#)` reads as "Sign up". */
const EMPTY_LINK_TARGET_RE = /\(#[^()\s]{0,40}\)$/;
/** The consent line under the button ("By signing up, you agree to our Terms …"). */
const SIGNUP_CONSENT_RE = /^by (?:signing up|subscribing|clicking|submitting|registering|entering your e-?mail)\b/i;
/** The box's pitch: one sentence of up to this many words ("Get the day's top stories in your inbox."). */
const SIGNUP_PITCH_MAX_WORDS = 25;
/** A box has a few lines: a longer paragraph is something else (and the scan stays bounded). */
const SIGNUP_MAX_LINES = 10;
/** A feedback widget's question; its answer buttons (FEEDBACK_BUTTONS) follow. */
const FEEDBACK_RE =
  /^(?:was this (?:page|article|answer|post|guide|information) (?:helpful|useful)|did (?:this|the) (?:page|article) (?:help(?: you)?|answer your question)|is this page (?:helpful|useful)|how (?:helpful|useful) was this (?:page|article)|(?:war|ist) (?:diese(?:r)? (?:seite|artikel|information)) hilfreich|cette page vous a-t-elle été utile|cet article vous a-t-il été utile|¿?(?:te|le) (?:ha )?(?:resultado|sido) útil (?:esta|este) (?:página|artículo)|¿?(?:fue|es) útil (?:esta|este) (?:página|artículo)|questa pagina (?:ti )?è stata utile|(?:esta|essa) página (?:foi|é) útil|(?:was|is) deze pagina nuttig)[ \t]*\??$/i;
const FEEDBACK_BUTTONS: ReadonlySet<string> = new Set([
  'yes', 'no', 'yes, thanks', 'no, thanks', 'not really', 'thumbs up', 'thumbs down',
  'ja', 'nein', 'oui', 'non', 'sí', 'si', 'sì', 'sim', 'não', 'nee',
]);

/**
 * Forms of a page pasted as text. A newsletter box: a heading ("Sign up for our newsletter", "Stay in
 * the loop") alone on its line, not under a line ending in ':' or '?', then (after at most one blank
 * line) a paragraph of its field labels and buttons ("Email address", "Subscribe"; one at least, an
 * e-mail field under the bare heading "Newsletter", which a document's section may be),
 * its consent line ("By signing up, you agree …") and up to two pitch sentences; a line of anything
 * else and the box stays. A feedback widget: "Was this page helpful?" and its "Yes" / "No" lines.
 * A line holding a value stays in balanced.
 */
export function dropSignupForms(lines: string[], kind: Uint8Array, keepsValue: (s: string) => boolean, heads: readonly number[]): boolean {
  const n = lines.length;
  let changed = false;
  const dropRange = (from: number, to: number): void => {
    for (let m = from; m < to; m++) {
      if (kind[m] !== 0 || lines[m]!.trim() === '' || keepsValue(lines[m]!)) continue;
      kind[m] = 2;
      changed = true;
    }
  };
  let done = 0; // lines before this one are taken
  for (const i of heads) {
    if (i < done || kind[i] === 1) continue;
    const t = lines[i]!.trim();
    if (t === '' || t.length > 60) continue;
    if (FEEDBACK_RE.test(t)) {
      let k = i + 1;
      while (k < n && kind[k] === 0 && FEEDBACK_BUTTONS.has(chromeKey(lines[k]!))) k++;
      if (k > i + 1) {
        dropRange(i, k);
        done = k;
      }
      continue;
    }
    const before = i > 0 && kind[i - 1] !== 1 ? lines[i - 1]!.trim() : ''; // the line before, in its paragraph
    const key = chromeKey(t);
    // A Markdown heading of its own words: the box must show its e-mail field (pages from API-01
    // set each of its lines apart by a blank line).
    const markdown = !SIGNUP_HEADINGS.has(key) && isSignupHeading(t);
    if (t.endsWith(':') || t.endsWith('?') || before.endsWith(':') || before.endsWith('?') || (!SIGNUP_HEADINGS.has(key) && !markdown)) continue;
    let email = !markdown && !BARE_SIGNUP_HEADINGS.has(key);
    const spaced = MD_HEADING_RE.test(t);
    let j = i + 1;
    if (j < n && kind[j] === 0 && lines[j]!.trim() === '') j++;
    let k = j;
    let fields = 0;
    let pitches = 0;
    let consent = false;
    for (let read = 0; k < n && kind[k] !== 1 && read < SIGNUP_MAX_LINES; k++) {
      const line = lines[k]!.trim();
      if (line === '') {
        // Blank lines part a Markdown box's lines; two in a row, or one before a heading, end it.
        if (spaced && k + 1 < n && kind[k + 1] === 0 && lines[k + 1]!.trim() !== '' && !MD_HEADING_RE.test(lines[k + 1]!)) continue;
        break;
      }
      read++;
      const field = chromeKey(line.replace(EMPTY_LINK_TARGET_RE, ''));
      if (SIGNUP_FIELDS.has(field)) {
        fields++;
        email ||= SIGNUP_EMAIL_FIELDS.has(field);
      }
      else if (line.length <= 300 && SIGNUP_CONSENT_RE.test(line)) consent = true;
      // A Markdown box's pitch stands over its fields: a short line after them is the page's text again.
      else if (pitches < 2 && !(spaced && (fields > 0 || consent)) && line.length <= 200 && !line.endsWith('?') && line.split(/[ \t]+/).length <= SIGNUP_PITCH_MAX_WORDS) pitches++;
      else {
        // In a Markdown box the box ends at the blank line before the first line of something else.
        if (spaced && k > j && lines[k - 1]!.trim() === '') k--;
        break;
      }
    }
    if (fields === 0 || !email || (k < n && kind[k] !== 1 && lines[k]!.trim() !== '')) continue;
    dropRange(i, k);
    done = k;
  }
  return changed;
}

/** Headings of a site's link index (a footer's, a site map's): what follows them is navigation. */
const NAV_HEADINGS: ReadonlySet<string> = new Set([
  'site index', 'site map', 'sitemap', 'quick links', 'useful links', 'site navigation', 'footer navigation', 'main menu',
  'main navigation', 'explore our site', 'schnellzugriff', 'liens rapides', 'enlaces rápidos',
]);
/** A link label of such an index: up to five words and 50 characters, no closing ! ? or colon, no full stop after a lower-case word or digit ("U.S." is a label). */
const NAV_LABEL_RE = /^[\p{L}\d][^\t\n]{0,49}$/u;
const NAV_LABEL_MAX_WORDS = 5;
const isNavLabel = (t: string): boolean => NAV_LABEL_RE.test(t) && !/[!?:]$/.test(t) && !LABEL_END_RE.test(t) && t.split(/[ \t]+/).length <= NAV_LABEL_MAX_WORDS;

/**
 * A site index pasted with a page (called only for a text with page chrome): a heading such as
 * "Site Index", "Site Map", "Quick Links" alone on its line (not under a line ending in ':' or '?'),
 * then the short link labels that follow, across blank lines, up to the first other line; three at
 * least. A label holding a value stays in balanced.
 */
export function dropSiteIndex(lines: string[], kind: Uint8Array, keepsValue: (s: string) => boolean, heads: readonly number[]): boolean {
  const n = lines.length;
  let changed = false;
  let done = 0; // lines before this one are scanned
  for (const i of heads) {
    if (i < done || kind[i] === 1) continue;
    const t = lines[i]!.trim();
    const before = i > 0 && kind[i - 1] !== 1 ? lines[i - 1]!.trim() : ''; // the line before, in its paragraph
    if (t === '' || t.length > 40 || t.endsWith(':') || before.endsWith(':') || before.endsWith('?') || !NAV_HEADINGS.has(chromeKey(t))) continue;
    let k = i + 1;
    let labels = 0;
    for (; k < n && kind[k] !== 1; k++) {
      const line = lines[k]!.trim();
      if (line === '' || kind[k] === 2) continue;
      if (!isNavLabel(line)) break;
      labels++;
    }
    // (on too few labels, a heading among the lines scanned would see fewer still: the scan goes on after them)
    done = k;
    if (labels < 3) continue;
    for (let m = i; m < k; m++) {
      if (kind[m] !== 0 || lines[m]!.trim() === '' || keepsValue(lines[m]!)) continue;
      kind[m] = 2;
      changed = true;
    }
  }
  return changed;
}

/** A key that may head a newsletter box, a feedback widget, a site index or a related-story run (the functions check the rest). */
export const isPageHeading = (key: string): boolean =>
  SIGNUP_HEADINGS.has(key) || NAV_HEADINGS.has(key) || isHeadlineLabel(key) || (key.endsWith('?') && FEEDBACK_RE.test(key));

/**
 * A Markdown heading that names a sign-up ("## Get the Gazette's morning briefing", "### Sign up
 * for updates"): it heads a newsletter box when the box's e-mail field and button follow.
 */
export const isSignupHeading = (line: string): boolean => MD_HEADING_RE.test(line) && line.length <= 100 && SIGNUP_WORD_RE.test(line);
const MD_HEADING_RE = /^#{1,6}[ \t]/;
const SIGNUP_WORD_RE = /\b(?:newsletters?|briefing|bulletin|digest|inbox|mailing list|sign up|subscribe)\b/i;

/** Pager links of a blog or docs page ("Previous" / "Next post", arrows aside). */
const PAGER_PREV: ReadonlySet<string> = new Set(['previous', 'prev', 'previous post', 'previous article', 'previous page', 'previous chapter', 'older post', 'older posts', 'vorherige', 'précédent', 'anterior']);
const PAGER_NEXT: ReadonlySet<string> = new Set(['next', 'next post', 'next article', 'next page', 'next chapter', 'newer post', 'newer posts', 'nächste', 'suivant', 'siguiente']);
/** Headings of a page's own table of contents, whose items are the page's headings said again. */
const TOC_LABELS: ReadonlySet<string> = new Set([
  'on this page', 'in this article', 'in this section', 'jump to', 'contents', 'table of contents', 'page contents',
  'auf dieser seite', 'inhalt', 'inhaltsverzeichnis', 'sur cette page', 'sommaire', 'en esta página', 'contenido', 'índice', 'indice',
]);
/** Entries said again that make a contents list. */
const TOC_MIN_ENTRIES = 2;
/** A contents list's own controls (MediaWiki's "hide" and "(Top)"). */
const TOC_TOGGLES: ReadonlySet<string> = new Set(['hide', 'show', 'top', '(top)', 'toggle']);
/** A line as a contents entry names it: without its section number ("2.1 Dam construction") and heading marks. */
const tocKey = (line: string): string => line.trim().replace(/^#{1,6}[ \t]+/, '').replace(/^\(?\d{1,3}(?:\.\d{1,3})*\)?\.?[ \t]+/, '');
const ARROWS_RE = /^[«‹←<\s]+|[»›→>\s]+$/g;
const pagerKey = (line: string): string => chromeKey(line.replace(ARROWS_RE, ''));

/**
 * What is left of a page's chrome once the other rules ran (called last, only for a text with page chrome):
 * - a pager paragraph: "Previous" and "Next" lines (both), each with at most one title line under it;
 * - an "On this page" list whose lines are all said elsewhere in the text as lines (the headings);
 * - in a paragraph where a rule dropped lines, the remaining lines that are menu, footer,
 *   share or chrome labels ("Search" beside a dropped menu, "Comments" over "Leave a comment").
 * A line holding a value stays in balanced.
 */
export function dropPageLeftovers(lines: string[], kind: Uint8Array, keepsValue: (s: string) => boolean): boolean {
  const n = lines.length;
  let changed = false;
  const drop = (m: number): void => {
    if (kind[m] !== 0 || lines[m]!.trim() === '' || keepsValue(lines[m]!)) return;
    kind[m] = 2;
    changed = true;
  };
  /** Trimmed line → how often it occurs (built when a table of contents is met). */
  let counts: Map<string, number> | undefined;
  for (let i = 0; i < n; ) {
    if (kind[i] === 1 || lines[i]!.trim() === '') {
      i++;
      continue;
    }
    let j = i;
    while (j < n && kind[j] !== 1 && lines[j]!.trim() !== '') j++;
    // the paragraph is lines i..j-1
    let prev = false;
    let next = false;
    let pager = true;
    let dropped = false;
    let labels = true;
    for (let k = i; k < j; k++) {
      if (kind[k] === 2) {
        dropped = true;
        continue;
      }
      const t = lines[k]!.trim();
      const key = chromeKey(t);
      if (!isKnownLabel(key)) labels = false;
      if (!pager) continue;
      const p = t.length <= 40 ? pagerKey(t) : '';
      if (PAGER_PREV.has(p)) prev = true;
      else if (PAGER_NEXT.has(p)) next = true;
      else if (k === i || t.length > 120 || HEADLINE_END_RE.test(t) || !(PAGER_PREV.has(pagerKey(lines[k - 1]!)) || PAGER_NEXT.has(pagerKey(lines[k - 1]!)))) pager = false;
    }
    if (pager && prev && next) for (let k = i; k < j; k++) drop(k);
    else if (dropped && labels) for (let k = i; k < j; k++) drop(k);
    else {
      // The contents label may open the paragraph or stand inside a browser's run of chrome lines.
      for (let h = i; h < j; h++) {
        const t = lines[h]!.trim();
        // A label that a menu run took first still heads its list.
        if (kind[h] === 1 || t.length > 40 || t.endsWith(':') || !TOC_LABELS.has(chromeKey(t))) continue;
        let a = h + 1;
        if (a === j && a + 1 < n && kind[a] === 0) a++; // the list may follow after a blank line
        let b = a;
        while (b < n && kind[b] !== 1 && lines[b]!.trim() !== '') b++;
        if (b - a < 2) break;
        if (!counts) {
          counts = new Map();
          for (let k = 0; k < n; k++) {
            if (kind[k] === 1) continue;
            const key = tocKey(lines[k]!);
            counts.set(key, (counts.get(key) ?? 0) + 1);
          }
        }
        // The list: its entries said again as lines (the headings), up to the first that is not
        // (a browser's copy runs on into the headline); its first entry may be an "Overview" that
        // links to the page's top, and its controls go with it.
        let end = a;
        let said = 0;
        let first = true;
        for (let k = a; k < b; k++) {
          if (kind[k] === 2 || TOC_TOGGLES.has(chromeKey(lines[k]!))) continue;
          if ((counts.get(tocKey(lines[k]!)) ?? 0) >= 2) said++;
          else if (!first) break;
          first = false;
          end = k + 1;
        }
        if (said >= TOC_MIN_ENTRIES) {
          drop(h);
          for (let k = a; k < end; k++) drop(k);
          if (end === b) j = Math.max(j, b);
        }
        break;
      }
    }
    i = j;
  }
  return changed;
}

/**
 * Related-story runs of a page pasted as text (called only where other page chrome went): a heading
 * such as "Related stories", "Most read", "You might also like", "More on X" alone on its line
 * (no colon, no question mark: "Headlines:" is the user's), then, after at most one blank line, 2+
 * consecutive headline lines (isHeadline: 3-20 words, no closing full stop; a line that is one
 * link reads as its text). The heading and the headlines go; a headline holding a value stays in
 * balanced, and so does the heading then. The run ends at the first other line.
 */
export function dropHeadlineRuns(lines: string[], kind: Uint8Array, keepsValue: (s: string) => boolean, heads: readonly number[]): boolean {
  const n = lines.length;
  let changed = false;
  let done = 0; // lines before this one are taken
  for (const i of heads) {
    if (i < done || kind[i] === 1) continue;
    const label = linkText(lines[i]!.trim());
    if (label === '' || label.length > 60 || label.endsWith(':') || label.endsWith('?')) continue;
    const key = chromeKey(label);
    if (key === '' || !isHeadlineLabel(key)) continue;
    let j = i + 1;
    if (j < n && kind[j] === 0 && lines[j]!.trim() === '') j++;
    let k = j;
    let headlines = 0;
    // A headline is often a link to its story ("1. [Title](/story)"): it is read as its text.
    for (; k < n && kind[k] === 0 && isHeadline(headlineText(lines[k]!.trim())); k++) headlines++;
    if (headlines < 2) continue;
    // A headline that stays (it holds a value) keeps its heading: without it the headlines would read as the text's own.
    let kept = false;
    for (let m = j; m < k && !kept; m++) kept = keepsValue(lines[m]!);
    for (let m = kept ? j : i; m < k; m++) {
      if (kind[m] !== 0 || lines[m]!.trim() === '' || keepsValue(lines[m]!)) continue;
      // A headline over its date: the date stays (a value), so does the headline it dates
      // (without it the date would read as the headline's above).
      if (m + 1 < k && DATE_LINE_RE.test(lines[m + 1]!.trim()) && keepsValue(lines[m + 1]!)) continue;
      kind[m] = 2;
      changed = true;
    }
    done = k;
  }
  return changed;
}
/** A line that is only a date: "Jan 22, 2025", "22 January 2025", "2025-01-22", "01/22/2025". */
const DATE_LINE_RE = /^(?:\p{L}{3,9}\.? \d{1,2},? \d{4}|\d{1,2}\.? \p{L}{3,9}\.? \d{4}|\d{4}-\d{2}-\d{2}|\d{1,2}[/.]\d{1,2}[/.]\d{2,4})$/u;
/**
 * A heading over a run of headlines in a page pasted as text (dropHeadlineRuns): a related heading but
 * the bare "More" and "Recommended" (a page's own sections use them: "Recommended" over advice), or
 * "More on X", "More from X", "More X stories" (up to 7 words).
 */
const MORE_LABEL_RE = /^more (?:on|from|in|about) [^.!?]{1,40}$|^more [^.!?]{1,30} (?:stories|news|articles|posts|recipes|videos|headlines|coverage|reviews|guides)$/;
const isHeadlineLabel = (key: string): boolean =>
  (RELATED_HEADINGS.has(key) && key !== 'more' && key !== 'recommended') || (key.startsWith('more ') && MORE_LABEL_RE.test(key) && key.split(' ').length <= 7);
/** A headline under such a heading: 3 to 20 words, up to 150 characters, a capital, digit or quote first, no closing . , ; : ! and no tab. */
const HEADLINE_RE = /^[\p{Lu}\d"'‘“][^\t\n]{8,148}$/u;
const HEADLINE_END_RE = /[.,;:!]["'’”)]*$/;
/** A line that is one link, under an optional list marker: a headline linking its story. */
const LINKED_HEADLINE_RE = /^(?:(?:[-*+]|\d{1,3}[.)])[ \t]+)?\[([^\]\n]{1,300})\]\([^()\s]{1,2000}\)$/;
const headlineText = (t: string): string => (t.endsWith(')') ? (LINKED_HEADLINE_RE.exec(t)?.[1] ?? t) : t);
const isHeadline = (t: string): boolean => {
  if (!HEADLINE_RE.test(t) || HEADLINE_END_RE.test(t)) return false;
  const words = t.split(/[ \t]+/).length;
  return words >= 3 && words <= 20;
};
