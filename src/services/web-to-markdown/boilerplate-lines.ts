/**
 * Short standalone lines inside the chosen content that are page furniture, not article text:
 * a dateline ("Updated 1:39 am EST, Wednesday, November 20, 2019"), a byline ("By Jane Doe and
 * John Roe"), a newsletter prompt, a follow-us line, a photo caption ending in its credit. (Affiliate notices and copyright lines are not among them: the development
 * references keep them on some pages and drop them on others.) Each is recognised by how it is
 * written, in the languages the rules name, and only when it stands alone as a short block
 * (a paragraph, heading or one-item list): the same words inside a paragraph of prose stay.
 *
 * The patterns are fixed and linear (no nested quantifiers) and run only on blocks of at most
 * MAX_LINE characters, so page text cannot make them slow.
 */

/** Longest block (in characters of its text) that is tested at all. */
const MAX_LINE = 220;

const MONTH =
  'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|' +
  'januar|februar|märz|mai|juni|juli|oktober|dezember|janvier|février|mars|avril|juin|juillet|août|septembre|octobre|novembre|décembre|' +
  'enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre|gennaio|febbraio|aprile|maggio|giugno|luglio|settembre|ottobre|dicembre|' +
  'janeiro|fevereiro|março|maio|junho|julho|setembro|outubro|dezembro';
const WEEKDAY =
  'mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:rs(?:day)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?|' +
  'montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|' +
  'lunes|martes|miércoles|jueves|viernes|sábado|domingo|segunda|terça|quarta|quinta|sexta';

/**
 * A dateline: a publication/update word, an optional connector, then straight away a date or a
 * time (digit, month or weekday). The line must also hold a year or a clock time, so
 * "Updated November 3: the council voted..." (an update note) stays.
 */
const DATELINE = new RegExp(
  '^(?:last |first |originally )?(?:updated|posted|published|modified|' +
    'aktualisiert|veröffentlicht|publié|mis à jour|publicado|actualizado|atualizado|pubblicato|aggiornato|gepubliceerd|bijgewerkt|' +
    'опубликовано|обновлено|发布时间|发表时间|更新时间|发布日期|公開日|更新日)' +
    '(?:\\s*(?::|on|at|am|le|el|em|il|op|le)\\b|\\s*[:：|–—-])?\\s*(?:\\d|(?:' + MONTH + '|' + WEEKDAY + ')\\b)',
  'iu',
);
const YEAR_OR_TIME = /(?:^|\D)(?:19|20)\d\d(?:\D|$)|\d{1,2}[:.h]\d\d\s*(?:[ap]\.?m\b|[ap]\.?\s?m\.|uhr|h\b|gmt|utc|e[sd]t|c[sd]t|p[sd]t|ist|\b|$)/iu;

/**
 * Newsletter prompts: a sentence that starts with a sign-up imperative, and a newsletter noun in
 * the same short line ("Sign up for the free daily newsletter", "Newsletter abonnieren"). "Sign up
 * for a Hulu account" (a step of a how-to) has no such noun, and "You can also subscribe to this
 * newsletter" or "The newsletter, which 40,000 people subscribe to, ..." start otherwise: both stay.
 */
const SIGN_UP =
  /(?:^|[.!?:]\s+)(?:click here to |please |and )?(?:subscribe|sign up|get|join|register|abonnieren sie|melden sie sich|abonnez-vous|inscrivez-vous|suscr[íi]bete|iscriviti|assine|inscreva-se|подпишитесь)\b|newsletter (?:abonnieren|bestellen)/iu;
const NEWSLETTER = /newsletter|mailing list|infolettre|рассылк/iu;

/** "Follow us on Twitter", "Follow Newsbeat on Instagram", "Folgen Sie uns auf Facebook". */
const FOLLOW =
  /(?:^|[.!?]\s+)(?:follow|folgen sie|suivez|síguenos|seguici|siga-nos|подписывайтесь)\b.{0,60}\b(?:twitter|facebook|instagram|linkedin|youtube|tiktok|telegram|mastodon|bluesky|threads|x\.com)\b/iu;

/**
 * A byline: "By" (by, von, par, por, di, door, av, af, przez) and then only names, dates and
 * times: every word starts with a capital, has no letter case (digits, Han, kana), or is a
 * connector, a month, a weekday, a clock word or a publication word ("on", "and", "a.m.",
 * "updated"). "By Monday, the team had finished" and "By 2030 emissions fall" hold other words
 * or start with a date and stay; headings are not tested (a title may read "By The Numbers").
 */
const BYLINE_START = /^(?:by|von|par|por|di|door|av|af|przez)\s+(\S+)/iu;
const BYLINE_WORD = new RegExp(
  '^(?:and|und|et|y|e|en|og|och|i|&|with|mit|avec|con|com|the|de|da|do|dos|das|van|von|der|den|la|le|du|del|della|di|al|el|bin|ibn|ter|ten|' +
    'on|at|am|um|à|em|of|in|staff|writers?|reporters?|correspondents?|editors?|contributors?|' +
    'updated|posted|published|publié|mis|jour|publicado|actualizado|veröffentlicht|aktualisiert|' +
    'a\\.?m\\.?|p\\.?m\\.?|h|uhr|' + MONTH + '|' + WEEKDAY + ')$',
  'iu',
);

const DATE_WORD = new RegExp('^(?:' + MONTH + '|' + WEEKDAY + ')$', 'iu');

function isByline(t: string): boolean {
  if (t.length > 110 || /[?!:]$/u.test(t)) return false;
  const first = BYLINE_START.exec(t);
  if (first === null) return false;
  const name = first[1]!.replace(/[.,]$/u, '');
  // "By 2030", "By Monday", "By November": a date, not a name.
  if (/^\d/u.test(name) || DATE_WORD.test(name)) return false;
  const words = t.slice(first[0].length - first[1]!.length).split(/[\s,|/·•—–;()]+/u);
  for (const raw of words) {
    const w = raw.replace(/^[-'"“‘]+|[-'"”’.]+$/gu, '');
    if (w === '' || !/\p{Ll}/u.test(w[0]!)) continue;
    if (!BYLINE_WORD.test(w)) return false;
  }
  return true;
}

/**
 * A photo caption: four or more words, then a credit at the end ("(Image: GETTY)", "Credit: EPA",
 * "Photo by Kirk Irwin/Getty Images", "[File: Reuters]", ".../Getty Images"). A sentence that only
 * mentions a photo ("The photo: a crowd at the gate, taken in 1968.") ends otherwise and stays.
 */
const CREDIT_END =
  /(?:\(\s*(?:image|photo|photograph|picture|pic|foto|bild|credit)s?(?: credits?)?\s*:[^()]{1,60}\)|credits?\s*:\s*[^.:]{1,60}|(?:^|[\s.])(?:photo|photograph|image|picture|foto|bild)s?\s*(?::|by|von|de|di|par)\s+\p{Lu}[^.:]{0,60}|\[(?:file|image|photo|foto)\s*:[^\]]{1,60}\]|\/\s*(?:getty images|afp|reuters|ap|epa|dpa|shutterstock|istock)[^.]{0,20})\s*$/iu;
/** A line that opens with a credit label ("Main image credit:", "Image Source:", "Photo:") is a credit only. */
const LEADING_CREDIT = /^(?:\p{L}+ ){0,2}(?:(?:image|photo|photograph|picture|foto|bild)s?(?: (?:source|credits?))?|source|credits?)\s*:/iu;

/**
 * A line that opens with a full date ("November 20, 2019 / 1:07 AM / CBS News", "Monday,
 * November 18, 2019, 04:05 pm PT", "on November 19, 2019, 6:21 AM EST") and holds nothing but
 * dates, times and at most a few capitalised words (a source), with a clock time or "ago" in it.
 * "November 20, 2019 was the day the vote failed" has other words and stays.
 */
const DATE_FIRST = new RegExp(
  '^(?:on |published |updated )?(?:(?:' + WEEKDAY + ')\\.?,? )?(?:(?:' + MONTH + ')\\.? \\d{1,2}(?:st|nd|rd|th)?,? (?:19|20)\\d\\d|\\d{1,2}(?:st|nd|rd|th)?\\.? (?:' + MONTH + ')\\.?,? (?:19|20)\\d\\d|\\d{1,2}[./-]\\d{1,2}[./-](?:19|20)?\\d\\d|(?:19|20)\\d\\d[./-]\\d\\d?[./-]\\d\\d?)\\b',
  'iu',
);
const DATE_REST_WORD = /^(?:[ap]\.?m\.?|[a-z]?[sd]t|gmt|utc|ist|cet|cest|mez|ago|hours?|mins?|minutes?|days?|updated|published|posted|on|at|am|um|à|le|el|em)$/iu;

function isDateLine(t: string): boolean {
  // A clock time or "... ago" makes it a time stamp: "29 November 2018 | 20 January 2019" (an
  // event's dates, kept by a reference) has none.
  if (t.length > 80 || !/(?<!\d)\d{1,2}[:h]\d\d(?!\d)|\bago\b/u.test(t)) return false;
  const m = DATE_FIRST.exec(t);
  if (m === null) return false;
  let capitals = 0;
  for (const raw of t.slice(m[0].length).split(/[\s,|/·•—–;()]+/u)) {
    const w = raw.replace(/^[-'"“‘]+|[-'"”’.:]+$/gu, '');
    if (w === '' || /^\d/u.test(w) || DATE_REST_WORD.test(w) || DATE_WORD.test(w)) continue;
    if (!/^\p{Lu}/u.test(w) || ++capitals > 3) return false;
  }
  return true;
}

/**
 * An engagement count standing alone: a number and what was counted ("3 Likes", "1.2K views",
 * "14 replies", "5 Kommentare"), as forums and blogs print under a post. "3 likes and a dislike"
 * or "2 Answers" (a Q&A page's heading over its answers) read otherwise and stay.
 */
const ENGAGEMENT_COUNT =
  /^\d[\d.,]*\s?[km]?\s+(?:likes?|comments?|replies|views?|shares?|claps?|votes?|reactions?|reposts?|retweets?|upvotes?|kommentare?|commentaires?|comentarios?|commenti|antworten|réponses|respuestas|vues|aufrufe)$/iu;

/** Why a short standalone line reads as page furniture, or null when it does not. */
export function boilerplateLineKind(line: string, heading = false): 'dateline' | 'byline' | 'sign-up' | 'follow' | 'credit' | 'count' | null {
  const t = line.trim();
  if (t.length === 0 || t.length > MAX_LINE) return null;
  if (t.length <= 40 && ENGAGEMENT_COUNT.test(t)) return 'count';
  if (t.length <= 110 && DATELINE.test(t) && YEAR_OR_TIME.test(t)) return 'dateline';
  if (isDateLine(t)) return 'dateline';
  if (!heading && isByline(t)) return 'byline';
  if (NEWSLETTER.test(t) && SIGN_UP.test(t)) return 'sign-up';
  if (FOLLOW.test(t)) return 'follow';
  // The credit is at most ~90 characters at the end: only the tail is searched.
  const from = Math.max(0, t.length - 96);
  const credit = CREDIT_END.exec(from === 0 ? t : t.slice(from));
  // Caption text before the credit: a line that is only a credit ("Image Source: ...") is kept
  // by some references and dropped by others.
  if (credit !== null && !LEADING_CREDIT.test(t) && t.slice(0, from + credit.index).split(/\s+/u).filter((w) => /\p{L}/u.test(w)).length >= 4) return 'credit';
  return null;
}

/**
 * A block whose text cannot be MAX_LINE characters or less: longer than that plus a heading or
 * list marker, and without markup that blockLineText removes. One length test and a few
 * character scans let most paragraphs skip the patterns.
 */
function tooLong(block: string, max: number): boolean {
  return block.length > max + 7 && block.indexOf('](') === -1 && block.indexOf('*') === -1 && block.indexOf('\\') === -1 && block.indexOf('_') === -1 && block.indexOf('`') === -1;
}

/** What a rendered Markdown block is, if page furniture: a short line (boilerplateLineKind) or a related-links label (RELATED_LABEL). */
export function furnitureBlock(block: string): 'line' | 'label' | null {
  if (block.length > MAX_LINE * 2 || block.includes('\n') || tooLong(block, MAX_LINE)) return null;
  const text = blockLineText(block);
  if (text === null || text.length > MAX_LINE) return null;
  if (text.length <= 120 && RELATED_LABEL.test(text)) return 'label';
  return boilerplateLineKind(text, block.charCodeAt(0) === 0x23 /* # */) === null ? null : 'line';
}

/**
 * The label of a related-links box: "Related stories", "You may also like...", "More Great WIRED
 * Stories", "Lesen Sie auch", "推荐阅读", alone or followed by a colon and one title ("Related
 * post: ..."). Labels that can open a sentence of prose ("Also on Tuesday", "More on that later")
 * are not among them.
 */
const RELATED_LABEL = new RegExp(
  '^(?:related(?: posts?| stories| articles| coverage(?: from .{1,40})?| content| reading| links| news| videos?)?|read more|read also|also read|see also|recommended(?: for you| stories| articles| reading)?|' +
    'you (?:may|might) also (?:like|enjoy)|more (?:\\S+ ){0,3}(?:stories|articles|posts|reads|videos)|more from .{1,40}|' +
    'mehr zum thema|weitere artikel|lesen sie auch|auch interessant|das könnte sie auch interessieren|lire aussi|à lire aussi|voir aussi|sur le même sujet|' +
    'leia também|veja também|leia mais|leggi anche|potrebbe interessarti|lee también|te puede interesar|noticias relacionadas|artículos relacionados|' +
    'читайте также|相关阅读|相关文章|相关新闻|推荐阅读|延伸阅读|関連記事|あわせて読みたい)' +
    '\\s*(?:[:：.…]*$|[:：]\\s*\\S.{0,100}$)',
  'iu',
);

/** A rendered list of short items (headlines), as a related-links box holds. */
export function isShortItemList(block: string): boolean {
  if (!/^(?:[-+] |\d+\. )/.test(block)) return false;
  for (const line of block.split('\n')) if (line.length > 160) return false;
  return true;
}

/**
 * An author note, as news pages close an article: "Keith Bradsher contributed reporting",
 * "Phil Helsel is a reporter for NBC News.", "Write to Al Root at ...", "... may be reached at".
 * Only tested on the last blocks of the content (see AUTHOR_NOTE_TAIL), where such notes sit; the
 * same sentence inside an article about a reporter stays.
 */
const AUTHOR_NOTE =
  /contributed (?:reporting|to this (?:report|story|article))|^write to \p{Lu}\S* \p{Lu}\S*(?: \p{Lu}\S*)? at |(?:may|can) be (?:reached|contacted) at |^(?:\p{Lu}[\p{L}'’.-]* ){1,4}(?:\([^)]{0,60}\) )?is (?:an? |the )(?:[\p{L}-]+ ){0,4}(?:reporter|writer|editor|correspondent|journalist|columnist|contributor|publisher)\b|views (?:and opinions )?expressed (?:in this article )?are (?:those of )?the author/iu;

/** How many blocks at the end of the content are tested for author notes. */
export const AUTHOR_NOTE_TAIL = 4;

/** A rendered block near the content's end that is a short author note (AUTHOR_NOTE). */
export function isAuthorNoteBlock(block: string): boolean {
  if (block.length > MAX_LINE * 2 || block.includes('\n') || tooLong(block, MAX_LINE)) return false;
  const text = blockLineText(block);
  return text !== null && text.length <= MAX_LINE && block.charCodeAt(0) !== 0x23 && AUTHOR_NOTE.test(text);
}

/** A rendered list whose every item is only a heading: a block of teaser headlines ("- #### Title"), not prose. */
export function isHeadlineList(block: string): boolean {
  if (!/^(?:[-+] |\d+\. )#{1,6} /.test(block)) return false;
  for (const line of block.split('\n')) if (!/^\s*(?:[-+] |\d+\. )#{1,6} /.test(line)) return false;
  return true;
}

/** Plain text of one rendered Markdown block for the test: emphasis, escapes, link targets, a heading or single-item marker removed. */
export function blockLineText(block: string): string | null {
  if (block.includes('\n')) return null;
  if (block.length > MAX_LINE * 3) return null;
  // Each replacement only when its character is there: most blocks hold no markup.
  let t = block;
  const c = t.charCodeAt(0);
  if (c === 0x23 || c === 0x2d || c === 0x2b || (c >= 0x30 && c <= 0x39)) t = t.replace(/^(?:#{1,6} |[-+] |\d+\. )/, '');
  if (t.includes('](')) t = t.replace(/!\[[^\]]*\]\([^)]*\)/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
  if (t.includes('\\')) t = t.replace(/\\([\\`*_#>+.-])/g, '$1');
  if (t.includes('*') || t.includes('_') || t.includes('`')) t = t.replace(/[*_`]+/g, '');
  return t.trim();
}
