/**
 * API-09 boilerplate of pasted e-mails and pages (`balanced` and `aggressive`; core.ts runs it after
 * the structure passes, before masking). Line rules a reader of a pasted thread or article would
 * apply without thinking; each is a whole-line or whole-paragraph test, never a cut inside a line.
 *
 *   mobile signatures   "Sent from my iPhone", "Get Outlook for Android" alone on a line
 *   salutations         "Hi,", "Kind regards," alone on a line (a name stays: "Dear Ann,")
 *   disclaimers         a paragraph with 2+ legal-notice cues ("intended recipient", "strictly
 *                       prohibited", "notify the sender", "CONFIDENTIALITY NOTICE:" …), or 3+ of
 *                       them in German, French, Spanish, Italian, Portuguese or Dutch
 *   mailing footers     a line that opens with "To unsubscribe", "You received this message
 *                       because", "View this email in your browser", "Manage your preferences" …
 *   page chrome         a line that is only "Share this", "Follow us", "Read more", "Related
 *                       articles", "Advertisement", "Skip to content", "Back to top" … (after
 *                       heading, list and emphasis markers)
 *   quote markers       the `>` markers of a quoted reply that follows its "… wrote:" line (the
 *                       text stays, the attribution line says whose it is)
 *   separators          a line of underscores (Outlook's line above a quoted header)
 *   banners             an external-sender warning ("CAUTION: This email originated from outside
 *                       of the organization. Do not click links…")
 *   footer links        a line that is only footer link labels ("Terms and conditions | Unsubscribe |
 *                       Privacy Policy") or only social network names ("Facebook Twitter LinkedIn")
 *   print notices       "Please consider the environment before printing this e-mail", "E-mail may
 *                       be monitored."
 *   pleasantries        "Hope this helps.", "Thank you for your email." alone on a line
 *   transport headers   in a pasted message's header block (3+ "Name: value" lines, one of them
 *                       From, To, Subject, Date or Sent), the headers mail servers and clients add
 *                       for delivery, not for the reader: Received, DKIM-Signature, MIME-Version,
 *                       Content-Type, Message-ID, List-Unsubscribe, X-… but X-From/X-To …, and
 *                       any header left empty ("X-cc:"); From, To, Cc, Subject, Date and the rest stay
 *   pasted page text    a run of 3+ short lines, two or more of them menu, footer, share or social
 *                       labels ("Home", "Log in", "Privacy Policy", "Tweet"), with the site's sections
 *                       between them; a cookie notice ("We use cookies to …") and its button lines;
 *                       a menu said twice, per line and joined on one line, with a menu label; a
 *                       newsletter box, a "Was this page helpful?" widget, a blog's comment form ("Leave
 *                       a Reply", "Your email address will not be published."); in a text with such
 *                       chrome also a "Related stories" / "More on X" heading with the headlines under
 *                       it, a site index under "Site Map" / "Quick Links", a pager ("Previous" … "Next"),
 *                       an "On this page" list of headings said again, and labels left beside dropped
 *                       chrome; some labels in German, French, Spanish, Italian
 *   calculator notes    GSM8K-style `<<48/2=24>>` in a worked step that states it ("48/2 = <<48/2=24>>24"
 *                       → "48/2 = 24"): the one edit inside a line of balanced, see dropCalculatorNotes
 *
 * In a paragraph that holds values (a phone number, an e-mail address), a line that is a disclaimer
 * by itself keeps in `balanced` only its sentences with a value; the others go.
 *
 * In `balanced` a line or paragraph holding a value the contract protects (number, URL, e-mail,
 * quoted string, code span, identifier, placeholder: patterns.ts RETAINED_CLASSES) is never dropped.
 * `aggressive` drops those too, and also: image-only lines, link-only list items under a "Related"
 * / "Read more" heading, tracking parameters (utm_*, fbclid, gclid, mc_cid, mc_eid) of URLs, the
 * targets of inline links in prose (`[text](url)` → `text`; not in table rows or code), and the
 * scaffolding of subtitle transcripts (subtitles.ts: cue numbers, end times; cues become turns)
 * and of timed transcripts (timed-turns.ts: a header's time moves into its turn, acknowledgements go).
 *
 * Code (fenced, indented by 4) is left alone. One scan over the lines plus one per paragraph, each
 * test a regex without nested quantifiers over one line or a Set lookup: linear in the input.
 *
 * This file holds the pass and the rules it applies in place (quote markers, disclaimer paragraphs,
 * links); the tables and tests are beside it: email-lines.ts (signatures, footers, salutations,
 * notices), legal-disclaimers.ts, transport-headers.ts, calculator-notes.ts, page-labels.ts (the
 * label tables), page-menus.ts (menus, cookie notices), page-boxes.ts (newsletter boxes, site
 * indexes, related stories, pagers), pasted-lines.ts (code lines, quote markers, values).
 */
import type { Level } from './core.ts';
import { dropCalculatorNotes } from './calculator-notes.ts';
import { endsWithMark, FOOTER_FIRST, FOOTER_RE, isMobileSignature, isNoticeLine, SALUTATION_LINES } from './email-lines.ts';
import { DISCLAIMER_GATE_RE, DISCLAIMER_MAX_CHARS, DISCLAIMER_MAX_LINES, ERROR_WORD_RE, isDisclaimer, termSentences, valueSentences } from './legal-disclaimers.ts';
import { dropHeadlineRuns, dropPageLeftovers, dropSignupForms, dropSiteIndex, isPageHeading, isSignupHeading } from './page-boxes.ts';
import { CHROME_LINES, chromeKey, COMMENT_FORM_RE, linkText, LIST_ONLY, RELATED_HEADINGS, WEBMAIL_BUTTONS } from './page-labels.ts';
import { dropJoinedMenus, dropMenuBlocks, type LabelRun } from './page-menus.ts';
import { ATTRIBUTION_RE, codeLines, firstNonBlank, holdsValue, LINE_RULE_MAX_CHARS, QUOTE_PREFIX_RE } from './pasted-lines.ts';
import { cuesAsTurns } from './subtitles.ts';
import { timedTurns } from './timed-turns.ts';
import { dropTransportHeaders, mayOpenTransport } from './transport-headers.ts';

/** A wiki's edit link at a heading's end, in the languages of the word tables. */
const EDIT_LINK_RE = /[ \t]*\[[ \t]*(?:edit(?: source)?|bearbeiten(?: \| quelltext bearbeiten)?|quelltext bearbeiten|modifier(?: le code)?|editar(?: código)?|modifica(?: wikitesto)?|bewerken(?: \| brontekst bewerken)?)[ \t]*\][ \t]*$/i;
const UNDERSCORES_RE = /^[ \t]{0,3}_{3,}[ \t]*$/;
const IMAGE_ONLY_RE = /^!\[[^\]\n]{0,300}\]\([^()\s]{0,2000}\)$/;
/** A list item that is only a link: "- [text](url)", "- #### [text](url)". */
const LINK_ITEM_RE = /^(?:[-*+]|\d{1,3}[.)])[ \t]+(?:#{1,6}[ \t]+)?\[[^\]\n]{1,300}\]\([^()\s]{1,2000}\)[ \t]*$/;
/**
 * An inline link (not an image): `[text](target "title")`, the target a URL or path (it holds one of
 * / . : # ? =, so a retrieval header "[7](Insulin)" is no link); the text may be empty (an icon link).
 */
const INLINE_LINK_RE = /(?<![!\\])\[([^\[\]\n]{0,300})\]\((?:<[^<>\n]{0,2000}>|(?=[^()\s]{0,2000}[/.:#?=])[^()\s]{1,2000})(?:[ \t]+(?:"[^"\n]{0,300}"|'[^'\n]{0,300}'))?\)/g;
const TABLE_LINE_RE = /^[ \t]*\|.*\|[ \t]*$/;
const URL_SCAN_RE = /\bhttps?:\/\/[^\s<>()"'`\]]+/g;
const TRACKING_PARAM_RE = /^(?:utm_[a-z_]{1,20}|fbclid|gclid|dclid|msclkid|mc_cid|mc_eid|_hsenc|_hsmi)(?:=|$)/i;

/** First letters (lower case) of a mobile signature: sent, get; von, gesendet, envoyé, enviado, inviato, verzonden. */
const MOBILE_FIRST: ReadonlySet<number> = new Set([...'sgvei'].map((c) => c.charCodeAt(0)));

/** Labels of a box of ads under them (native ad widgets). */
const SPONSORED_LABELS: ReadonlySet<string> = new Set([
  'sponsored', 'sponsored content', 'sponsored links', 'sponsored stories', 'sponsored articles', 'paid content', 'paid post',
  'promoted', 'promoted content', 'promoted stories', 'around the web', 'from around the web', 'from our partners', 'partner content',
]);
/** The most words of an ad's line: a headline or the advertiser's name. */
const AD_LINE_MAX_WORDS = 16;

/** A line of an ad box: text of AD_LINE_MAX_WORDS words at most, not closed as a sentence. */
function isAdLine(line: string): boolean {
  const t = line.trim();
  if (t === '' || /[.:;]$/.test(t)) return false;
  return t.split(/\s+/).length <= AD_LINE_MAX_WORDS;
}

/** Drops the boilerplate of pasted e-mails and pages at `level` (see the module comment). */
export function dropBoilerplate(text: string, level: Level): string {
  if (level === 'safe') return text;
  const aggressive = level === 'aggressive';
  let lines = text.split('\n');
  /** 0 prose, 1 code (never touched), 2 dropped */
  let kind = codeLines(lines);
  let changed = false;
  if (aggressive && text.includes('-->')) {
    const turns = cuesAsTurns(lines, kind);
    if (turns !== lines) {
      lines = [...turns];
      kind = codeLines(lines);
      changed = true;
    }
  }
  if (aggressive) {
    const turns = timedTurns(lines, kind);
    if (turns !== lines) {
      lines = [...turns];
      kind = codeLines(lines);
      changed = true;
    }
  }
  const n = lines.length;

  const drop = (i: number): void => {
    kind[i] = 2;
    changed = true;
  };
  const keepsValue = (s: string): boolean => !aggressive && holdsValue(s);

  // Line rules.
  let page = false; // a page chrome line, footer link row or menu went: the text is a page pasted as text
  /** Lines whose key heads a newsletter box, feedback widget, site index or related-story run. */
  const heads: number[] = [];
  let transport = false; // a line may open a transport header
  let related = false; // aggressive: inside the link list under a "Related" heading
  /** balanced: related headings ("Most read") whose drop waits for the items under them. */
  const relatedHeads: number[] = [];
  for (let i = 0; i < n; i++) {
    if (kind[i] !== 0) continue;
    const line = lines[i]!;
    // No line rule applies to a long line, but a link item or an image (aggressive).
    if (line.length > LINE_RULE_MAX_CHARS && !related && !(aggressive && line.includes('!['))) continue;
    const q = line.charCodeAt(firstNonBlank(line)) === 62 /* > */ ? QUOTE_PREFIX_RE.exec(line) : null;
    const body = (q ? line.slice(q[0].length) : line).trim();
    if (body === '') continue; // blank lines do not end a related list
    transport ||= mayOpenTransport(body);
    const c0 = body.charCodeAt(0) | 0x20; // lower-cased first letter
    if (related) {
      if (LINK_ITEM_RE.test(body)) {
        drop(i);
        continue;
      }
      related = false;
    }
    if (body.charCodeAt(0) === 95 /* _ */ && UNDERSCORES_RE.test(body)) {
      drop(i);
      continue;
    }
    // A wiki heading's edit link ("History[edit]", "Geschichte [Bearbeiten | Quelltext bearbeiten]"):
    // the heading opens its paragraph and its section's text follows.
    if (body.charCodeAt(body.length - 1) === 93 /* ] */ && body.length <= 160 && (i === 0 || lines[i - 1]!.trim() === '') && i + 1 < n && lines[i + 1]!.trim() !== '') {
      const m = EDIT_LINK_RE.exec(line);
      if (m !== null && /\S/.test(line.slice(0, m.index))) {
        lines[i] = line.slice(0, m.index);
        changed = true;
        page = true;
      }
    }
    if (MOBILE_FIRST.has(c0) && body.length <= 300 && isMobileSignature(body)) {
      if (aggressive || !/\d/.test(body)) drop(i);
      continue;
    }
    if (FOOTER_FIRST.has(c0) && body.length <= 300 && FOOTER_RE.test(body)) {
      if (!keepsValue(body)) drop(i);
      continue;
    }
    if (isNoticeLine(body) && !keepsValue(body)) {
      drop(i);
      page = true;
      continue;
    }
    if ((c0 === 121 || c0 === 114 || c0 === 115) /* y r s */ && body.length <= 120 && COMMENT_FORM_RE.test(body)) {
      drop(i);
      page = true;
      continue;
    }
    // A chrome line or heading is read through its links: "[Sign in](/login)", "## More on [Books](/tag/books)".
    const plain = linkText(body);
    const key = plain.length <= 60 ? chromeKey(plain) : '';
    if ((key !== '' && isPageHeading(key)) || (c0 === 35 /* # */ && isSignupHeading(body))) heads.push(i);
    if (key !== '' && SALUTATION_LINES.has(endsWithMark(key) ? key.replace(/[,!]+$/, '') : key) && !keepsValue(body)) {
      drop(i);
      continue;
    }
    // A sponsored box ("Sponsored Content", "Around the Web"): its paragraph of short lines is ads,
    // an advertiser's headline and name each; without the label they would read as the page's.
    // Where an ad holds a value (balanced keeps it), the label stays over it.
    if (key !== '' && SPONSORED_LABELS.has(key) && !keepsValue(body) && i + 1 < n && kind[i + 1] === 0 && isAdLine(lines[i + 1]!)) {
      let j = i + 1;
      while (j < n && kind[j] === 0 && isAdLine(lines[j]!) && !keepsValue(lines[j]!)) j++;
      if (j === n || lines[j]!.trim() === '') {
        for (let k = i; k < j; k++) drop(k);
        page = true;
        i = j - 1;
      }
      continue;
    }
    if (key !== '' && CHROME_LINES.has(key) && !keepsValue(body) && (!LIST_ONLY.has(key) || linkItemFollows(lines, kind, i))) {
      // A heading of a page's boxes ("Most read", "Sign up for our newsletter") is no sign of a
      // page by itself: a user may paste that box alone to ask about it.
      page ||= !WEBMAIL_BUTTONS.has(key) && !isPageHeading(key);
      if (aggressive && RELATED_HEADINGS.has(key)) related = true;
      // balanced: a related heading goes after the passes, unless items under it stay (they hold a value).
      if (!aggressive && RELATED_HEADINGS.has(key)) relatedHeads.push(i);
      else drop(i);
      continue;
    }
    if (aggressive && body.charCodeAt(0) === 33 /* ! */ && IMAGE_ONLY_RE.test(body)) drop(i);
  }

  if (transport && dropTransportHeaders(lines, kind, aggressive)) changed = true;
  const runs: LabelRun[] = [];
  if (dropMenuBlocks(lines, kind, keepsValue, runs, page)) changed = page = true;
  if (runs.length > 0 && dropJoinedMenus(lines, kind, keepsValue, runs)) changed = page = true;
  if (heads.length > 0 && dropSignupForms(lines, kind, keepsValue, heads)) changed = page = true;
  if (page && heads.length > 0 && dropHeadlineRuns(lines, kind, keepsValue, heads)) changed = true;
  if (page && heads.length > 0 && dropSiteIndex(lines, kind, keepsValue, heads)) changed = true;
  if (page && dropPageLeftovers(lines, kind, keepsValue)) changed = true;
  // Without its heading a list that stays ("1. Roadworks on A62 …") would read as the text's own.
  for (const i of relatedHeads) if (kind[i] === 0 && !itemFollows(lines, kind, i)) drop(i);

  // Disclaimer paragraphs. A paragraph is read only if it fits (DISCLAIMER_MAX_LINES lines,
  // DISCLAIMER_MAX_CHARS characters as joined) and its own text holds a strong cue's word: a
  // transcript of one long paragraph, or passages of thousands of characters, are not scanned at
  // all. The one cue that can span a line break ("in" | "error") is looked for in the joined
  // paragraph where the paragraph holds "error", and counts only in a text that holds a cue on one
  // line too (`textHasCue`, as when the gate was one scan of the whole text).
  // A line of quote markers alone (`>`) parts a quote's paragraphs: the notice under a quoted
  // message goes, not the message with it.
  let textHasCue: boolean | undefined;
  const termsSaid = new Set<string>();
  for (let i = 0, at = 0; i < n; ) {
    // `at`: where line i starts in `text` (lines from i on are still as in `text`)
    if (kind[i] !== 0 || quoteBody(lines[i]!) === '' || isRowLine(lines[i]!)) {
      at += lines[i]!.length + 1;
      i++;
      continue;
    }
    let j = i;
    let end = at; // where the line after the paragraph starts
    // A table row parts the paragraph too: no notice runs into a table.
    while (j < n && kind[j] === 0 && quoteBody(lines[j]!) !== '' && !isRowLine(lines[j]!)) end += lines[j++]!.length + 1;
    let chars = 0; // the joined paragraph's length (each line without quote markers, trimmed, and a space)
    if (j - i <= DISCLAIMER_MAX_LINES) for (let k = i; k < j && chars <= DISCLAIMER_MAX_CHARS; k++) chars += quoteBody(lines[k]!).length + 1;
    const fits = j - i <= DISCLAIMER_MAX_LINES && chars <= DISCLAIMER_MAX_CHARS;
    const own = fits ? text.slice(at, end) : '';
    let cue = fits && DISCLAIMER_GATE_RE.test(own);
    let para = '';
    if (cue || (fits && ERROR_WORD_RE.test(own))) {
      for (let k = i; k < j; k++) para += quoteBody(lines[k]!) + ' ';
      cue ||= DISCLAIMER_GATE_RE.test(para) && (textHasCue ??= DISCLAIMER_GATE_RE.test(text));
    }
    if (cue && isDisclaimer(para)) {
      if (!keepsValue(para)) {
        for (let k = i; k < j; k++) drop(k);
        // A term stated under the notice stays, on the paragraph's first line (under its quote markers).
        const terms = termSentences(para);
        if (terms !== '' && !termsSaid.has(terms)) {
          termsSaid.add(terms); // a notice said again states its terms again: once is enough
          lines[i] = (QUOTE_PREFIX_RE.exec(lines[i]!)?.[0] ?? '') + terms;
          kind[i] = 0;
        }
      } else {
        // balanced: a line that is a notice by itself (as mail clients paste them, one line) keeps
        // its sentences with a value (under its quote markers); the rest of it goes. Each line is
        // judged alone: a paragraph may join a notice to other text.
        for (let k = i; k < j; k++) {
          const q = QUOTE_PREFIX_RE.exec(lines[k]!);
          const body = (q ? lines[k]!.slice(q[0].length) : lines[k]!).trim();
          if (body.length > DISCLAIMER_MAX_CHARS || !DISCLAIMER_GATE_RE.test(body) || !isDisclaimer(body)) continue;
          const kept = valueSentences(body);
          // A notice said again keeps its values again: once is enough ("SAS au capital de 4 200 000 €").
          if (kept === '' || (kept.length < body.length && termsSaid.has(kept))) {
            drop(k);
            // The rules that framed it ("-----" above and under) frame nothing now.
            if (k > 0 && k + 1 < n && RULE_LINE_RE.test(lines[k - 1]!) && RULE_LINE_RE.test(lines[k + 1]!)) {
              drop(k - 1);
              drop(k + 1);
            }
          }
          else if (kept.length < body.length) {
            termsSaid.add(kept);
            lines[k] = (q?.[0] ?? '') + kept;
            changed = true;
          }
        }
      }
    }
    at = end;
    i = j;
  }

  // Quote markers of a reply quoted under its "… wrote:" line, where the quote closes its message:
  // one level goes (a quote within it keeps its own, one level less), the attribution line says
  // whose the text is. Text after the quote (an inline answer, a reply under the quote) would read
  // as the quoted writer's: the markers stay.
  let attributed = false;
  let quoteEnd = -1; // the line after the quote last scanned (quoteEndFrom)
  let quoteCloses = false;
  let last = -1; // the last line with text
  for (let i = text.includes('>') ? 0 : n; i < n; i++) {
    const line = lines[i]!;
    if (kind[i] === 2) continue;
    const at = firstNonBlank(line);
    if (at === line.length) continue;
    const q = kind[i] === 0 && line.charCodeAt(at) === 62 ? QUOTE_PREFIX_RE.exec(line) : null;
    if (q) {
      if (!attributed && last !== -1 && ATTRIBUTION_RE.test(lines[last]!.trim())) {
        // One scan per quote: every line of it closes its message or none does.
        if (i >= quoteEnd) {
          quoteEnd = quoteEndFrom(lines, kind, i);
          quoteCloses = quoteEnd >= lines.length || closesMessage(lines[quoteEnd]!);
        }
        attributed = quoteCloses;
      }
      if (attributed) {
        lines[i] = line.slice(ONE_QUOTE_LEVEL_RE.exec(line)![0].length);
        changed = true;
      }
    } else attributed = false;
    last = i;
  }
  // A quoted line that held only markers is blank now; blank-line runs collapse later (rules.ts).

  // Calculator annotations of worked solutions ("48/2 = <<48/2=24>>24"): the step says them already.
  if (text.includes('<<')) {
    for (let i = 0; i < n; i++) {
      if (kind[i] !== 0 || !lines[i]!.includes('<<')) continue;
      const next = dropCalculatorNotes(lines[i]!);
      if (next !== lines[i]) {
        lines[i] = next;
        changed = true;
      }
    }
  }

  if (aggressive) {
    for (let i = 0; i < n; i++) {
      if (kind[i] !== 0 || !lines[i]!.includes('](')) continue;
      const line = lines[i]!;
      // Inline links in prose keep their text, not their target; table rows and lines with code spans stay.
      if (line.includes('`') || TABLE_LINE_RE.test(line)) continue;
      const next = line.replace(INLINE_LINK_RE, '$1');
      if (next !== line) {
        lines[i] = next;
        changed = true;
      }
    }
    for (let i = 0; i < n; i++) {
      if (kind[i] !== 0 || !lines[i]!.includes('http')) continue;
      const next = lines[i]!.replace(URL_SCAN_RE, stripTracking);
      if (next !== lines[i]) {
        lines[i] = next;
        changed = true;
      }
    }
  }
  if (!changed) return text;
  const out: string[] = [];
  for (let i = 0; i < n; i++) if (kind[i] !== 2) out.push(lines[i]!);
  return out.join('\n');
}

/** The line without its quote markers, trimmed: how a paragraph's lines are joined for the disclaimer test. */
function quoteBody(line: string): string {
  const q = line.charCodeAt(firstNonBlank(line)) === 62 /* > */ ? QUOTE_PREFIX_RE.exec(line) : null;
  return (q ? line.slice(q[0].length) : line).trim();
}

/** True when the next non-blank line after `i` is a link-only list item. */
function linkItemFollows(lines: readonly string[], kind: Uint8Array, i: number): boolean {
  for (let j = i + 1; j < lines.length && j <= i + 3; j++) {
    const t = lines[j]!.trim();
    if (t === '') continue;
    return kind[j] === 0 && LINK_ITEM_RE.test(t);
  }
  return false;
}

/** The URL without its tracking query parameters (the rest of the query and the fragment kept in order). */
function stripTracking(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  let end = url.indexOf('#', q);
  if (end === -1) end = url.length;
  const params = url.slice(q + 1, end).split('&');
  const kept = params.filter((p) => !TRACKING_PARAM_RE.test(p));
  if (kept.length === params.length) return url;
  return url.slice(0, q) + (kept.length > 0 ? '?' + kept.join('&') : '') + url.slice(end);
}

/**
 * A list item or a short headline-like line right under line `i` (after at most one blank line)
 * that stays. Not a link: a list of links reads as links to elsewhere without its heading.
 */
function itemFollows(lines: readonly string[], kind: Uint8Array, i: number): boolean {
  let j = i + 1;
  if (j < lines.length && kind[j] === 0 && lines[j]!.trim() === '') j++;
  if (j >= lines.length || kind[j] !== 0) return false;
  const t = lines[j]!.trim().replace(ITEM_MARKER_RE, '');
  // A link item ("[Title](url)") stays in balanced (its URL): its heading stays over it too.
  if (t.startsWith('[')) return LINK_ITEM_START_RE.test(t);
  return t !== '' && t.length <= 150 && !/[.:!?]$/.test(t);
}
const ITEM_MARKER_RE = /^(?:[-*+•]|\d{1,3}[.)])[ \t]+/;
const LINK_ITEM_START_RE = /^\[[^\]\n]{1,300}\]\(/;

/** The first level of a quote's markers. */
const ONE_QUOTE_LEVEL_RE = /^[ \t]{0,3}>[ \t]?/;
/** A line that opens the next message of a thread: a header, an attribution, a separator or a title ("--- E-mail 2 ---", "Message 3"). */
const MESSAGE_START_RE = /^(?:(?:from|sent|date|to|subject|von|de|envoyé|gesendet)[ \t]*:|-{2,}[ \t]*(?:original message|forwarded message|ursprüngliche nachricht|message d'origine)|_{5,}$|begin forwarded message|[-=~_*#]{2,}[ \t]*\S.{0,60}[-=~_*#]{2,}$|#{1,6}[ \t]|(?:e-?mail|message|reply)[ \t]*#?\d+\b)/i;

/** The first line with text after the quote that opens at line `from` (its quoted and blank lines), or the text's length. */
function quoteEndFrom(lines: readonly string[], kind: Uint8Array, from: number): number {
  let i = from;
  for (; i < lines.length; i++) {
    if (kind[i] === 2) continue;
    const line = lines[i]!;
    const at = firstNonBlank(line);
    if (at !== line.length && line.charCodeAt(at) !== 62 /* > */) break;
  }
  return i;
}

/**
 * A line after a quote that shows the quote closed its message: the next message opens (a header,
 * an attribution line, a separator). A reply under the quote, or an answer between its lines
 * ("> 1. Keep the logo?" / "YES." / "> 2. …"), is told from the quoted text by the markers alone.
 */
function closesMessage(line: string): boolean {
  const t = line.trim();
  return MESSAGE_START_RE.test(t) || ATTRIBUTION_RE.test(t);
}

/** A table row (`| 1 | 22 |`) or a line of JSON (`{"a":1}`): no line of a legal notice. */
const isRowLine = (line: string): boolean => {
  const body = quoteBody(line);
  const c = body.charCodeAt(0);
  return c === 124 /* | */ || c === 123 /* { */ || (c === 91 /* [ */ && JSON_ARRAY_START_RE.test(body));
};
/** An array opening a line of JSON (`[{"a":1}]`, `[1,2]`), not a tag such as "[EXTERNAL]". */
const JSON_ARRAY_START_RE = /^\[[ \t]*(?:[{["\d\]-]|true|false|null)/;

/** A separator line ("-----", "_____", "*****"), under its quote markers. */
const RULE_LINE_RE = /^[ \t>]*(?:-{3,}|_{3,}|={3,}|\*{3,})[ \t]*$/;
