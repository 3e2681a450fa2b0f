/**
 * Menus of a page pasted as text (boilerplate.ts): runs of short label lines with two or more menu,
 * footer, share or social labels, a cookie notice and its buttons, and a menu said again on one line.
 */
import { CHROME_LINES, chromeKey, FOOTER_LINKS, isKnownLabel, isPageLabel, MENU_ITEMS, SOCIAL } from './page-labels.ts';
import { LINE_RULE_MAX_CHARS, plainLine } from './pasted-lines.ts';

/** A line that may be a menu item: a letter first, up to four words and 40 characters, no ! ? : (a sentence, a question or a label). */
const MENU_LINE_RE = /^\p{L}[^!?:\n]{0,39}$/u;
const MENU_LINE_MAX_WORDS = 4;
/**
 * A short label: up to four words, no ! ? :, and no full stop after a lower-case word or a digit
 * (a short sentence such as "Call 020 7946 0000." is none; "U.S." is a label).
 */
export const LABEL_END_RE = /[\p{Ll}\d]\.$/u;
const isMenuLine = (t: string): boolean => MENU_LINE_RE.test(t) && !LABEL_END_RE.test(t) && t.replace(/[ \t]*[»›→>]+$/, '').split(/[ \t]+/).length <= MENU_LINE_MAX_WORDS;
/** What a cookie banner's buttons say: such lines go with the notice above them. */
const CONSENT_BUTTONS: ReadonlySet<string> = new Set([
  'accept', 'accept all', 'accept all cookies', 'accept cookies', 'allow all', 'allow cookies', 'allow all cookies', 'i accept',
  'i agree', 'agree', 'reject', 'reject all', 'decline', 'deny', 'got it', 'ok', 'okay', 'manage preferences', 'manage cookies',
  'cookie settings', 'customize', 'customise', 'settings', 'necessary only', 'only necessary', 'essential only', 'learn more', 'more info',
  'tout accepter', 'tout refuser', 'accepter', 'refuser', 'personnaliser', "j'accepte", 'alle akzeptieren', 'akzeptieren',
  'ablehnen', 'alle ablehnen', 'einstellungen', 'nur notwendige', 'aceptar', 'aceptar todo', 'aceptar todas', 'rechazar',
  'rechazar todo', 'configurar', 'accetta', 'accetta tutto', 'rifiuta', 'rifiuta tutto', 'personalizza', 'aceitar', 'rejeitar',
  'accepteren', 'alles accepteren', 'weigeren', 'instellingen', 'manage options', 'more options', 'manage settings',
  'privacy settings', 'cookie preferences', 'view cookies', 'nur notwendige cookies', 'alle cookies akzeptieren',
]);
/** A cookie notice is read up to this length (its patterns are anchored at its start); a consent text runs longer than other chrome lines. */
const COOKIE_NOTICE_MAX_CHARS = 600;
/** The heading of a cookie banner, right above its notice. */
const CONSENT_HEADINGS: ReadonlySet<string> = new Set([
  'we value your privacy', 'we care about your privacy', 'your privacy', 'your privacy matters', 'your privacy choices',
  'cookie consent', 'cookies', 'cookie notice', 'cookie settings', 'privacy preferences', 'this website uses cookies',
  'we respect your privacy', 'wir respektieren ihre privatsphäre', 'ihre privatsphäre', 'datenschutzeinstellungen',
  'nous respectons votre vie privée', 'respect de votre vie privée', 'respetamos tu privacidad', 'tu privacidad',
]);
/** A banner's heading that names the site: "Cookies on the Marlowe Borough Council website" (GOV.UK's pattern). */
const COOKIES_ON_RE = /^cookies on [^\n]{1,80}$/i;
const isConsentHeading = (line: string): boolean => CONSENT_HEADINGS.has(chromeKey(line)) || COOKIES_ON_RE.test(chromeKey(line));
/** A banner's button that names what it accepts: "Accept recommended cookies", "Reject optional cookies". */
const CONSENT_BUTTON_RE = /^(?:accept|reject|allow|decline|refuse|deny|use)(?: all| only)?(?: (?:recommended|optional|necessary|essential|additional|analytics|non-essential|all))? cookies$/i;
const isConsentButton = (line: string): boolean => CONSENT_BUTTON_RE.test(line.trim());
/** A button written as a link (`[Accept all](#)`, `[View cookies](/cookies)`, `[Reject all]`), and what separates such buttons. */
const BUTTON_LINK_RE = /\[([^[\]\n]{1,40})\](?:\([^()\s]{0,300}\))?[ \t]*[|·•]?[ \t]*/gy;
/** A row of consent buttons written as links (`[Accept all](#) [Reject all](#) [Manage preferences](#)`). */
function isConsentButtonRow(line: string): boolean {
  const t = line.trim();
  if (!t.startsWith('[') || t.length > 200) return false;
  BUTTON_LINK_RE.lastIndex = 0;
  let items = 0;
  for (let m = BUTTON_LINK_RE.exec(t); m !== null; m = BUTTON_LINK_RE.exec(t)) {
    if (!CONSENT_BUTTONS.has(chromeKey(m[1]!)) && !isConsentButton(m[1]!)) return false;
    items++;
    if (BUTTON_LINK_RE.lastIndex === t.length) return true;
  }
  return false;
}
const isConsentButtonLine = (line: string): boolean => CONSENT_BUTTONS.has(chromeKey(line)) || isConsentButton(line) || isConsentButtonRow(line);
/** Sentence ends inside a cookie notice: before a capital, a quote or a link (`… partners. [Cookie policy](…)`). */
const NOTICE_SENTENCE_END_RE = /(?<=[.!?])[ \t]+(?=[A-Z"'‘“(\[])/;
/** …and speaks of the site, the visit or consent (so "We use cookies from the bakery" stays). */
const COOKIE_CUE_RE = /\b(?:experience|website|site|brows\w*|visit\w*|personali[sz]\w*|analytics|advertising|ads|traffic|consent|accept\w*|agree|preferences|privacy|policy|functionality)\b/i;
/** A cookie notice opens like this ("We use cookies to …", "This website uses cookies …"). */
const COOKIE_NOTICE_RE = /^(?:we(?: and our (?:\d+ )?(?:partners|vendors))? use (?:(?:some|necessary|essential|optional|analytics|additional) )?cookies|we(?:['’]d| would) like to (?:set|use) (?:(?:some|optional|analytics|additional) )?cookies|(?:this|our) (?:web)?site uses cookies|by (?:using|continuing to (?:use|browse)) (?:this|our) (?:web)?site,? you (?:agree|accept|consent) to (?:the|our) use of cookies)\b/i;
/** The same notice in German, French, Spanish, Italian, Portuguese, Dutch ("Ce site utilise des cookies …"). */
const COOKIE_NOTICE_OTHER_RE = /^(?:(?:diese|unsere) (?:web)?seite (?:verwendet|nutzt)|wir(?: und unsere(?: \d+)? partner)? (?:verwenden|nutzen)|(?:ce|notre) site utilise|nous(?: et nos(?: \d+)? partenaires)? utilisons|(?:este|nuestro) (?:sitio(?: web)?|portal) (?:utiliza|usa)|utilizamos|(?:questo|il nostro) sito (?:utilizza|usa)|utilizziamo|(?:este|o nosso) (?:site|sítio) (?:utiliza|usa)|(?:deze|onze) (?:web)?site (?:gebruikt|maakt gebruik van)|wij gebruiken)\b[^.!?\n]{0,40}cookies/i;
/** …and speaks of the visit, the audience, consent or ads. */
const COOKIE_CUE_OTHER_RE = /(?:akzept|zustimm|einwillig|analyse|werbung|besuch|audience|accept|refus|consent|navigation|publicit|mesur|aceptar|consentimiento|navegaci|publicidad|accett|consenso|navigazione|pubblicit|aceitar|navega|toestemming|accepteren|bezoek|advertent)/i;

/** Lines of a menu run outside its known labels that stay (a headline, a byline and its role). */
const EDGE_LINES_KEPT = 2;

/** A run of 3+ short label lines (dropMenuBlocks): lines start..end-1, and whether it holds a known label. */
export interface LabelRun {
  readonly start: number;
  readonly end: number;
  readonly known: boolean;
}

/**
 * Blocks of a page pasted as text (a browser's copy): a run of 3+ short label lines (up to four
 * words, no list marker, no ! ? :) of which two or more are menu, footer,
 * share or social labels ("Home", "About us", "Log in"; "Privacy Policy"; "Tweet", "Facebook"):
 * the site's own sections between them ("World", "Politics") go with them; a cookie notice line
 * and the button lines after it ("Accept", "Manage preferences"). A run under a line of its
 * paragraph that ends in a colon or a question mark ("Our menu:", "Which is a social network?")
 * is text about a menu and stays, and so is a Markdown list or a list of short lines with fewer
 * than two such labels (ingredients, names). A page's chrome line that a line rule dropped first
 * ("Skip to content", not a web mail's "Reply") still counts in the run beside it. Every run of 3+
 * lines not under such a line is added to `runs` (dropJoinedMenus reads them). Returns whether a line went.
 */
export function dropMenuBlocks(lines: string[], kind: Uint8Array, keepsValue: (s: string) => boolean, runs: LabelRun[], page: boolean): boolean {
  const n = lines.length;
  let changed = false;
  /** Menu runs found (start, end); they go when the text shows a page by more than one of them alone. */
  const menus: number[] = [];
  let cookie = false;
  /** The line before the current run, in its paragraph, ends with a colon or a question mark. */
  let labelled = false;
  for (let i = 0; i < n; ) {
    const body = kind[i] === 0 ? lines[i]!.trim() : '';
    if (body === '') {
      labelled = false;
      i++;
      continue;
    }
    // A cookie notice, also a short one that reads as a menu line ("This website uses cookies").
    if (body.length <= COOKIE_NOTICE_MAX_CHARS && body.includes('ookies') && isCookieNotice(plainLine(body))) {
      // A notice that holds a value keeps the sentences that hold one ("We and our 143 partners
      // use cookies…", "[Cookie policy](https://…)"); its heading and its buttons, which hold none,
      // go all the same.
      if (!keepsValue(body)) kind[i] = 2;
      else {
        const kept = body.split(NOTICE_SENTENCE_END_RE).filter(keepsValue).join(' ');
        if (kept.length < body.length) lines[i] = lines[i]!.slice(0, lines[i]!.indexOf(body)) + kept;
      }
      // Its heading, on the line above or above a blank line (Markdown).
      const h = i > 1 && kind[i - 1] === 0 && lines[i - 1]!.trim() === '' ? i - 2 : i - 1;
      if (h >= 0 && kind[h] === 0 && isConsentHeading(lines[h]!)) kind[h] = 2;
      changed = cookie = true;
      // What the banner says of cookies under it, then its buttons, in its paragraph or the next one.
      let m = i + 1;
      while (m < n && kind[m] === 0 && lines[m]!.includes('ookies') && !isConsentButtonLine(lines[m]!) && lines[m]!.length <= LINE_RULE_MAX_CHARS && !keepsValue(lines[m]!)) kind[m++] = 2;
      while (m < n && kind[m] === 0 && lines[m]!.trim() === '') m++;
      while (m < n && kind[m] === 0 && isConsentButtonLine(lines[m]!) && !keepsValue(lines[m]!)) kind[m++] = 2;
      labelled = false;
      i = m;
      continue;
    }
    let j = i;
    let known = 0;
    for (; j < n && kind[j] !== 1; j++) {
      const t = lines[j]!.trim();
      if (!isMenuLine(t)) break;
      const key: string = chromeKey(t); // '' for a line with a digit ("Election 2020"): a section, not a label
      if (kind[j] === 2 ? isPageLabel(key) : isKnownLabel(key)) known++;
      else if (kind[j] === 2) break;
    }
    // Chrome lines a line rule dropped ("Skip to content", "Follow us") still count in the run.
    let b = i;
    while (j > i && b > 0 && kind[b - 1] === 2 && isMenuLine(lines[b - 1]!.trim()) && isPageLabel(chromeKey(lines[b - 1]!))) {
      b--;
      known++;
    }
    const above = b < i && b > 0 && kind[b - 1] === 0 ? lines[b - 1]!.trim() : '';
    if (!labelled && j > i && !above.endsWith(':') && !above.endsWith('?') && j - b >= 3) runs.push({ start: b, end: j, known: known > 0 });
    if (!labelled && j > i && !above.endsWith(':') && !above.endsWith('?') && j - b >= 3 && known >= 2) {
      menus.push(i, j);
      i = j;
      continue;
    }
    if (j > i) {
      labelled = false;
      i = j;
      continue;
    }
    // A question that opens its paragraph is the user's ("Which is a social network?"); one inside
    // a run of pasted lines is a headline of the page ("Is it rude to decline a handshake?").
    labelled = body.endsWith(':') || (body.endsWith('?') && (i === 0 || kind[i - 1] === 1 || lines[i - 1]!.trim() === ''));
    i++;
  }
  // One menu run alone in a text that ends with a question may be what the question is about
  // ("Visible buttons / Log in / Sign up / Search", "Which button creates an account?"): it stays
  // unless the text shows a page otherwise too (page chrome, a cookie banner, a second menu).
  if (menus.length >= 4 || page || cookie || !endsWithQuestion(lines, kind)) {
    for (let r = 0; r < menus.length; r += 2) {
      // A browser's copy has no blank lines: the headline above a share bar, the byline or a field
      // label ("Prep time") under it stand in the same run. Up to EDGE_LINES_KEPT lines before the
      // run's first known label or after its last stay, or more when one of them reads as text;
      // else they are the site's sections, and go, as those between two labels do.
      const start = menus[r]!;
      const end = menus[r + 1]!;
      let first = start;
      while (first < end && !isKnownLabel(chromeKey(lines[first]!.trim()))) first++;
      let last = end - 1;
      while (last > first && !isKnownLabel(chromeKey(lines[last]!.trim()))) last--;
      if (first - start > EDGE_LINES_KEPT && !readsAsText(lines, start, first)) first = start;
      if (end - 1 - last > EDGE_LINES_KEPT && !readsAsText(lines, last + 1, end)) last = end - 1;
      // balanced keeps a label that reads as an identifier ("LinkedIn", "YouTube").
      for (let k = first; k <= last; k++) {
        if (keepsValue(lines[k]!)) continue;
        kind[k] = 2;
        changed = true;
      }
    }
  }
  return changed;
}

/**
 * Lines from..to-1 beside a menu's labels hold one that reads as text, not as a section's name: a
 * comma or a parenthesis ("Senior Data Engineer, Platform", "Denver, CO (Hybrid)": a posting's
 * title and place under its share bar). Then they stay, however many.
 */
function readsAsText(lines: readonly string[], from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (TEXT_MARK_RE.test(lines[k]!)) return true;
  return false;
}
const TEXT_MARK_RE = /[,()]/;

const isCookieNotice = (plain: string): boolean =>
  (COOKIE_NOTICE_RE.test(plain) && COOKIE_CUE_RE.test(plain)) || (COOKIE_NOTICE_OTHER_RE.test(plain) && COOKIE_CUE_OTHER_RE.test(plain));

/** The text's last line with text ends with a question mark. */
function endsWithQuestion(lines: readonly string[], kind: Uint8Array): boolean {
  for (let i = lines.length - 1; i >= 0; i--) {
    if (kind[i] === 2) continue;
    const t = lines[i]!.trim();
    if (t !== '') return t.endsWith('?');
  }
  return false;
}
/** A line that may repeat a menu on one line: up to this long, at least three items. */
const JOINED_MAX_CHARS = 300;

/** The first word of each menu, footer, social and chrome label. */
let labelFirstWords: ReadonlySet<string> | undefined;
/** The line's first word (lower case) opens an item or a menu label: most lines fail here, before the split. */
function startsWithItem(line: string, firstWords: ReadonlySet<string>): boolean {
  labelFirstWords ??= new Set([...MENU_ITEMS, ...FOOTER_LINKS, ...SOCIAL, ...CHROME_LINES].map((x) => x.split(' ')[0]!));
  let end = 0;
  while (end < line.length && line.charCodeAt(end) !== 32 && line.charCodeAt(end) !== 9) end++;
  const word = line.slice(0, end).toLowerCase();
  return firstWords.has(word) || labelFirstWords.has(word);
}

/**
 * A menu said twice, as a page gives it when copied: once one item per line, once joined on one line
 * (the desktop and the mobile menu: "Impeachment Bill Barr Kaepernick … Search"). A line that is
 * only the items of runs of 3+ short label lines (isMenuLine), three or more of them, besides
 * menu labels ("Search", "Menu"), repeats them; where the run or the line holds a menu label, the
 * line and the run go (a value stays in balanced). The split into items is a dynamic programme
 * over the words (items of up to four words): linear in the line.
 */
export function dropJoinedMenus(lines: string[], kind: Uint8Array, keepsValue: (s: string) => boolean, runs: readonly LabelRun[]): boolean {
  const n = lines.length;
  /** Item (lower case, spaces collapsed) → the index of its run in `runs`. */
  const items = new Map<string, number>();
  /** The first word of each item. */
  const firstWords = new Set<string>();
  for (let r = 0; r < runs.length; r++) {
    for (let k = runs[r]!.start; k < runs[r]!.end; k++) {
      const item = lines[k]!.trim().toLowerCase().replace(/[ \t]+/g, ' ');
      if (!items.has(item)) items.set(item, r);
      firstWords.add(item.split(' ')[0]!);
    }
  }
  let changed = false;
  for (let i = 0; i < n; i++) {
    if (kind[i] !== 0) continue;
    const t = lines[i]!.trim();
    if (t.length > JOINED_MAX_CHARS || !t.includes(' ') || !startsWithItem(t, firstWords)) continue;
    const words = t.toLowerCase().split(/[ \t]+/);
    const m = words.length;
    if (m < 3 || isMenuLine(t)) continue;
    // best[p]: the most items a split of words[0..p) holds, -1 if none; from[p]: run of one of them
    const best = new Int32Array(m + 1).fill(-1);
    best[0] = 0;
    let labelled = false;
    const used = new Set<number>();
    const via = new Int32Array(m + 1).fill(-1); // the start of the last piece of the best split
    const viaRun = new Int32Array(m + 1).fill(-1);
    for (let p = 0; p < m; p++) {
      if (best[p] < 0) continue;
      let piece = '';
      for (let len = 1; len <= MENU_LINE_MAX_WORDS && p + len <= m; len++) {
        piece = len === 1 ? words[p]! : piece + ' ' + words[p + len - 1]!;
        const run = items.get(piece);
        const score = run !== undefined ? best[p]! + 1 : isKnownLabel(chromeKey(piece)) ? best[p]! : -1;
        if (score > best[p + len]!) {
          best[p + len] = score;
          via[p + len] = p;
          viaRun[p + len] = run ?? -1;
        }
      }
    }
    if (best[m]! < 3) continue;
    for (let p = m; p > 0; p = via[p]!) {
      if (viaRun[p]! >= 0) used.add(viaRun[p]!);
      else labelled = true;
    }
    for (const r of used) labelled ||= runs[r]!.known;
    if (!labelled) continue;
    if (!keepsValue(t)) {
      kind[i] = 2;
      changed = true;
    }
    for (const r of used) {
      for (let k = runs[r]!.start, end = runs[r]!.end; k < end; k++) {
        if (kind[k] !== 0 || keepsValue(lines[k]!)) continue;
        kind[k] = 2;
        changed = true;
      }
    }
  }
  return changed;
}
