/**
 * API-09 boilerplate of pasted e-mails and pages (`balanced` and `aggressive`; core.ts runs it after
 * the structure passes, before masking). Line rules a reader of a pasted thread or article would
 * apply without thinking; each is a whole-line or whole-paragraph test, never a cut inside a line.
 *
 *   mobile signatures   "Sent from my iPhone", "Get Outlook for Android" alone on a line
 *   salutations         "Hi,", "Kind regards," alone on a line (a name stays: "Dear Ann,")
 *   disclaimers         a paragraph with 2+ legal-notice cues ("intended recipient", "strictly
 *                       prohibited", "notify the sender", "CONFIDENTIALITY NOTICE:" …)
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
 * / "Read more" heading, tracking parameters (utm_*, fbclid, gclid, mc_cid, mc_eid) of URLs, and
 * the targets of inline links in prose (`[text](url)` → `text`; not in table rows or code).
 *
 * Code (fenced, indented by 4) is left alone. One scan over the lines plus one per paragraph, each
 * test a regex without nested quantifiers over one line or a Set lookup: linear in the input.
 */
import type { Level } from './core.ts';
import { RETAINED_CLASSES } from './patterns.ts';

const MOBILE_RE =
  /^(?:sent from my (?:[a-z]+ )?(?:iphone|ipad|ipod|android(?: (?:phone|device|tablet))?|blackberry|mobile(?: (?:device|phone))?|phone|smartphone|tablet|windows phone|galaxy(?: [a-z0-9+ ]{1,20})?|pixel(?: [a-z0-9 ]{1,12})?)|sent from (?:outlook|mail|yahoo mail|gmail|aol|proton ?mail) for (?:ios|android|iphone|ipad|windows(?: \d{1,2})?|mac)|get outlook for (?:ios|android)|sent from (?:outlook|yahoo mail|mail) on (?:ios|android)|sent with (?:proton ?mail|blackberry)[a-z ]{0,30})[.!]?$/i;

/** A mailing-list or newsletter footer line: the cue opens the line. */
const FOOTER_RE =
  /^(?:to unsubscribe\b|unsubscribe(?:$|[ \t]*[|:·•]|[ \t]+(?:here|now|from|instantly)\b)|click here to unsubscribe|if you (?:no longer wish|wish to stop|would like to stop|do not wish) to receive|you (?:are )?receiv(?:ed|ing) this (?:(?:e-?mail|message|newsletter|notification)s? )?because|reply to this e-?mail directly,? or view it on|this (?:e-?mail|message) was sent to\b|you are subscribed to\b|view (?:this (?:e-?mail|newsletter) )?in (?:your|a) (?:web )?browser|having trouble viewing this (?:e-?mail|message)|manage (?:your )?(?:e-?mail |subscription |notification )?(?:preferences|settings|subscriptions?)(?:$|[ \t]*[|:·•])|update your (?:e-?mail )?preferences|to stop receiving)/i;

/** The long lines of a blog's comment form ("Your email address will not be published. Required fields are marked *"). */
const COMMENT_FORM_RE =
  /^(?:your e-?mail address will not be published\.?(?: required fields are marked \*)?|required fields are marked \*|save my name, e-?mail, and website in this browser for the next time i comment\.?|you must (?:be logged in|log in(?: or register)?) to (?:post a comment|comment|reply(?: here)?)\.?)$/i;
/** Cues of a legal / confidentiality disclaimer; a paragraph needs two distinct ones. */
const DISCLAIMER_CUE_RE =
  /\b(?:confidentiality notice|disclaimer:|privileged and confidential|intended (?:only|solely) for|intended recipients?|addressee(?:s)? only|(?:have )?received this (?:e-?mail|message|communication|transmission) in error|notify the sender|strictly prohibited|(?:any|the) (?:review|dissemination|distribution|disclosure|copying|retransmission)|may contain (?:confidential|privileged|proprietary)|legally privileged|delete (?:it|this (?:e-?mail|message)|the (?:e-?mail|message|original))\b|free of (?:any )?(?:viruses|virus)|accepts? (?:no|any) (?:liability|responsibility)|views or opinions (?:expressed|presented)|may be (?:unlawful|illegal)|received (?:it|this (?:e-?mail|message)) by mistake|(?:this|the) (?:e-?mail|message|communication)(?: and any attachments?)? (?:is|are|may be) confidential)/gi;
const DISCLAIMER_OPENER_RE = /^(?:confidentiality notice|confidentiality|disclaimer|legal disclaimer|important notice|privileged (?:and|&) confidential|notice of confidentiality)[ \t]*[:\-–—]/i;
const DISCLAIMER_MAX_LINES = 25;
const DISCLAIMER_MAX_CHARS = 3000;
/** Mobile, footer and chrome lines are short: longer lines skip those tests. */
const LINE_RULE_MAX_CHARS = 300;
/** The words of the strong cues: a text without any of them holds no disclaimer. */
const DISCLAIMER_GATE_RE = /confidential|intended|prohibited|disclaimer|privileged|in error|liabilit|sender|addressee/i;
/** The second word of the one cue that can span a line break ("in error"). */
const ERROR_WORD_RE = /error/i;

/** Headings of related and popular stories, also as chrome lines alone (CHROME_LINES), and a few in German, French, Spanish, Italian. */
const RELATED_MORE = [
  'more like this', 'read next', 'up next', 'what to read next', 'top stories', 'most viewed', 'most shared', 'most commented',
  'recent posts', 'recent articles', 'latest posts', 'latest stories', 'latest articles', 'similar articles', 'similar posts',
  'similar threads', 'customers also bought', 'customers also viewed', 'customers who bought this item also bought',
  "editors' picks", "editor's picks", 'editors picks', 'in case you missed it', 'more headlines', 'recommended reading',
  'mehr zum thema', 'meistgelesen', 'meistgelesene artikel', 'das könnte sie auch interessieren', 'lesen sie auch', 'weitere artikel',
  'à lire aussi', 'lire aussi', 'sur le même sujet', 'les plus lus', 'articles similaires', 'te puede interesar',
  'noticias relacionadas', 'lo más leído', 'más leídas', 'leggi anche', 'più letti', 'articoli correlati',
];
/** Buttons of a web mail view: chrome lines, but no sign of a pasted page (and no menu item). */
const WEBMAIL_BUTTONS: ReadonlySet<string> = new Set(['reply', 'reply all', 'forward', 'reply to all', 'show quoted text', 'show trimmed content']);
/** Page chrome: a line that is only one of these (lower case, after markers; see `chromeKey`). */
const CHROME_LINES: ReadonlySet<string> = new Set([
  'share this', 'share this article', 'share this story', 'share this post', 'share this page', 'share article',
  'share on facebook', 'share on twitter', 'share on x', 'share on linkedin', 'share via email', 'share via e-mail',
  'tweet this', 'pin it', 'email this', 'email this article', 'print', 'print this article', 'print this page',
  'follow us', 'follow us on twitter', 'follow us on facebook', 'follow us on instagram', 'follow us on linkedin',
  'follow us on social media', 'connect with us', 'like us on facebook',
  'read more', 'read more here', 'continue reading', 'read the full story', 'read the full article', 'more',
  'related', 'related articles', 'related stories', 'related posts', 'related content', 'related links', 'related reading',
  'related coverage', 'related news', 'recommended', 'recommended for you', 'recommended stories', 'recommended articles',
  'you may also like', 'you might also like', 'more from this author', 'more stories', 'more news', 'most popular',
  'most read', 'trending', 'trending now', 'popular posts', 'latest news', 'further reading',
  'advertisement', 'advertisements', 'sponsored content', 'story continues below advertisement',
  'article continues below advertisement', 'skip to content', 'skip to main content', 'skip to navigation',
  'back to top', 'jump to navigation', 'toggle navigation', 'close menu', 'open menu', 'skip to the content',
  'sign up for our newsletter', 'subscribe to our newsletter', 'newsletter sign up',
  'leave a comment', 'show comments', 'view comments', 'add a comment', 'copy link', 'link copied',
  // comment forms (WordPress and kin) and recipe cards
  'leave a reply', 'leave a review', 'post comment', 'submit comment', 'cancel reply', 'comments are closed',
  'jump to recipe', 'print recipe', 'pin recipe', 'save recipe', 'rate this recipe',
  // the same chrome in German, French, Spanish, Italian
  'anzeige', 'werbung', 'publicité', 'publicidad', 'pubblicità', 'teilen', 'artikel teilen', 'partager', 'compartir', 'condividi',
  'zum inhalt springen', 'aller au contenu', 'ir al contenido', 'vai al contenuto', 'weiterlesen', 'lire la suite', 'leer más',
  // buttons of a web mail or forum view pasted with the text
  ...WEBMAIL_BUTTONS,
  ...RELATED_MORE,
]);
/**
 * Greetings and closings of a pasted e-mail alone on their line ("Hi,", "Kind regards,"): no fact in
 * them; the sender's name under a closing stays. A greeting with a name ("Dear Ann,") stays.
 */
const SALUTATION_LINES: ReadonlySet<string> = new Set([
  'hi', 'hello', 'hey', 'hi all', 'hi everyone', 'hi team', 'hi there', 'hello all', 'hello everyone', 'hello team',
  'hey all', 'dear all', 'dear team', 'dear colleagues', 'dear sir or madam', 'dear sir/madam', 'good morning', 'good afternoon',
  'regards', 'best regards', 'kind regards', 'warm regards', 'warmest regards', 'many thanks', 'thanks', 'thank you',
  'thanks in advance', 'thanks again', 'thanks and regards', 'thanks & regards', 'best', 'all the best', 'best wishes',
  'cheers', 'sincerely', 'yours sincerely', 'sincerely yours', 'yours truly', 'yours faithfully', 'respectfully',
  'with best regards', 'with kind regards', 'talk soon', 'take care',
  // formulaic openers and closers of support and business mail
  'hope this helps', 'i hope this helps', 'hope you are well', 'i hope you are well', 'hope you are doing well',
  'i hope you are doing well', 'hope all is well', 'i hope all is well', 'hope this email finds you well',
  'i hope this email finds you well', 'hope this finds you well', 'i hope this finds you well',
  'thank you for your email', 'thanks for your email', 'thank you for your e-mail', 'thank you for your message',
  'thanks for your message', 'thank you for reaching out', 'thanks for reaching out', 'thank you for contacting us',
  'thank you for your patience', 'thanks for your patience', 'let me know if you have any questions',
  'please let me know if you have any questions', 'feel free to reach out', 'please feel free to reach out',
  'looking forward to hearing from you', 'i look forward to hearing from you', 'look forward to hearing from you',
]);

/** Labels of footer links: a line of 2+ of them, separated by | · • or commas, is a footer. */
const FOOTER_LINKS: ReadonlySet<string> = new Set([
  'terms', 'terms and conditions', 'terms & conditions', 'terms of use', 'terms of service', 'privacy', 'privacy policy',
  'privacy notice', 'privacy statement', 'cookie policy', 'cookies', 'cookie settings', 'unsubscribe', 'preferences',
  'manage preferences', 'email preferences', 'update preferences', 'contact', 'contact us', 'help', 'help center',
  'help centre', 'support', 'view in browser', 'view online', 'about', 'about us', 'accessibility', 'legal', 'imprint',
  'impressum', 'sitemap', 'careers', 'faq', 'faqs', 'newsletter', 'advertise', 'press',
  'datenschutz', 'datenschutzerklärung', 'kontakt', 'agb', 'mentions légales', 'confidentialité', 'aviso legal',
  'política de privacidad', 'privacidad', 'contacto', 'note legali',
]);
/** Items of a site's menu besides the footer, social and chrome labels: two of them in a run of 3+ short lines make it a menu (dropMenuBlocks). */
const MENU_ITEMS: ReadonlySet<string> = new Set([
  'home', 'homepage', 'blog', 'news', 'services', 'products', 'solutions', 'features', 'pricing', 'plans', 'shop', 'store',
  'cart', 'basket', 'checkout', 'account', 'my account', 'log in', 'login', 'log out', 'logout', 'sign in', 'sign out',
  'sign up', 'register', 'join', 'search', 'menu', 'events', 'resources', 'docs', 'documentation', 'community', 'forum',
  'partners', 'investors', 'customers', 'company', 'team', 'our team', 'jobs', 'locations', 'store locator', 'gallery',
  'portfolio', 'subscribe', 'donate', 'get started', 'try for free', 'start free trial', 'book a demo', 'request a demo',
  'book now', 'buy now', 'shop now', 'order now', 'order online', 'book a table', 'reserve a table', 'contact sales', 'talk to sales',
  'cookie settings', 'do not sell my personal information', 'do not sell or share my personal information', 'your privacy choices',
  'home page', 'go to home page', 'sections', 'site index', 'site map', 'navigation', 'categories', 'topics', 'all articles',
  // share and follow buttons (the chrome lines count too: "Print", "Copy link", "Skip to content")
  'share', 'tweet', 'pin', 'buffer', 'comment', 'comments', 'save', 'follow',
  // German, French, Spanish, Italian
  'startseite', 'suche', 'anmelden', 'abmelden', 'registrieren', 'abonnieren', 'menü', 'accueil', 'rechercher', 'recherche',
  'se connecter', 'connexion', "s'abonner", 'inicio', 'buscar', 'iniciar sesión', 'suscríbete', 'cerca', 'accedi', 'abbonati',
]);
/** A line that may be a menu item: a letter first, up to four words and 40 characters, no ! ? : (a sentence, a question or a label). */
const MENU_LINE_RE = /^\p{L}[^!?:\n]{0,39}$/u;
const MENU_LINE_MAX_WORDS = 4;
/**
 * A short label: up to four words, no ! ? :, and no full stop after a lower-case word or a digit
 * (a short sentence such as "Call 020 7946 0000." is none; "U.S." is a label).
 */
const LABEL_END_RE = /[\p{Ll}\d]\.$/u;
const isMenuLine = (t: string): boolean => MENU_LINE_RE.test(t) && !LABEL_END_RE.test(t) && t.replace(/[ \t]*[»›→>]+$/, '').split(/[ \t]+/).length <= MENU_LINE_MAX_WORDS;
/** What a cookie banner's buttons say: such lines go with the notice above them. */
const CONSENT_BUTTONS: ReadonlySet<string> = new Set([
  'accept', 'accept all', 'accept all cookies', 'accept cookies', 'allow all', 'allow cookies', 'allow all cookies', 'i accept',
  'i agree', 'agree', 'reject', 'reject all', 'decline', 'deny', 'got it', 'ok', 'okay', 'manage preferences', 'manage cookies',
  'cookie settings', 'customize', 'customise', 'settings', 'necessary only', 'only necessary', 'essential only', 'learn more', 'more info',
]);
/** …and speaks of the site, the visit or consent (so "We use cookies from the bakery" stays). */
const COOKIE_CUE_RE = /\b(?:experience|website|site|brows\w*|visit\w*|personali[sz]\w*|analytics|advertising|ads|traffic|consent|accept\w*|agree|preferences|privacy|policy|functionality)\b/i;
/** A cookie notice opens like this ("We use cookies to …", "This website uses cookies …"). */
const COOKIE_NOTICE_RE = /^(?:we(?: and our (?:partners|vendors))? use cookies|(?:this|our) (?:web)?site uses cookies|by (?:using|continuing to (?:use|browse)) (?:this|our) (?:web)?site,? you (?:agree|accept|consent) to (?:the|our) use of cookies)\b/i;

/** A run of 3+ short label lines (dropMenuBlocks): lines start..end-1, and whether it holds a known label. */
interface LabelRun {
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
function dropMenuBlocks(lines: string[], kind: Uint8Array, keepsValue: (s: string) => boolean, runs: LabelRun[], page: boolean): boolean {
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
    if (body.length <= LINE_RULE_MAX_CHARS && body.includes('ookies') && COOKIE_NOTICE_RE.test(plainLine(body)) && COOKIE_CUE_RE.test(body) && !keepsValue(body)) {
      kind[i] = 2;
      changed = cookie = true;
      // The banner's buttons, in its paragraph or the next one.
      let m = i + 1;
      while (m < n && kind[m] === 0 && lines[m]!.trim() === '') m++;
      while (m < n && kind[m] === 0 && CONSENT_BUTTONS.has(chromeKey(lines[m]!))) kind[m++] = 2;
      labelled = false;
      i = m;
      continue;
    }
    labelled = body.endsWith(':') || body.endsWith('?');
    i++;
  }
  // One menu run alone in a text that ends with a question may be what the question is about
  // ("Visible buttons / Log in / Sign up / Search", "Which button creates an account?"): it stays
  // unless the text shows a page otherwise too (page chrome, a cookie banner, a second menu).
  if (menus.length >= 4 || page || cookie || !endsWithQuestion(lines, kind)) {
    for (let r = 0; r < menus.length; r += 2) {
      // balanced keeps a label that reads as an identifier ("LinkedIn", "YouTube").
      for (let k = menus[r]!; k < menus[r + 1]!; k++) {
        if (keepsValue(lines[k]!)) continue;
        kind[k] = 2;
        changed = true;
      }
    }
  }
  return changed;
}

/** The text's last line with text ends with a question mark. */
function endsWithQuestion(lines: readonly string[], kind: Uint8Array): boolean {
  for (let i = lines.length - 1; i >= 0; i--) {
    if (kind[i] === 2) continue;
    const t = lines[i]!.trim();
    if (t !== '') return t.endsWith('?');
  }
  return false;
}

/** A label of the menu, footer, social or chrome tables (a key of chromeKey). */
const isKnownLabel = (key: string): boolean => MENU_ITEMS.has(key) || FOOTER_LINKS.has(key) || SOCIAL.has(key) || CHROME_LINES.has(key);
/** A known label that shows a page, not a web mail view ("Reply", "Forward"). */
const isPageLabel = (key: string): boolean => isKnownLabel(key) && !WEBMAIL_BUTTONS.has(key);
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
function dropJoinedMenus(lines: string[], kind: Uint8Array, keepsValue: (s: string) => boolean, runs: readonly LabelRun[]): boolean {
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
/** The consent line under the button ("By signing up, you agree to our Terms …"). */
const SIGNUP_CONSENT_RE = /^by (?:signing up|subscribing|clicking|submitting|registering|entering your e-?mail)\b/i;
/** The box's pitch: one sentence of up to this many words ("Get the day's top stories in your inbox."). */
const SIGNUP_PITCH_MAX_WORDS = 25;
/** A box has a few lines: a longer paragraph is something else (and the scan stays bounded). */
const SIGNUP_MAX_LINES = 10;
/** A feedback widget's question; its answer buttons (FEEDBACK_BUTTONS) follow. */
const FEEDBACK_RE = /^(?:was this (?:page|article|answer|post|guide|information) (?:helpful|useful)|did (?:this|the) (?:page|article) (?:help(?: you)?|answer your question)|is this page (?:helpful|useful)|how (?:helpful|useful) was this (?:page|article))\??$/i;
const FEEDBACK_BUTTONS: ReadonlySet<string> = new Set(['yes', 'no', 'yes, thanks', 'no, thanks', 'not really', 'thumbs up', 'thumbs down']);

/**
 * Forms of a page pasted as text. A newsletter box: a heading ("Sign up for our newsletter", "Stay in
 * the loop") alone on its line, not under a line ending in ':' or '?', then (after at most one blank
 * line) a paragraph of its field labels and buttons ("Email address", "Subscribe"; one at least, an
 * e-mail field under the bare heading "Newsletter", which a document's section may be),
 * its consent line ("By signing up, you agree …") and up to two pitch sentences; a line of anything
 * else and the box stays. A feedback widget: "Was this page helpful?" and its "Yes" / "No" lines.
 * A line holding a value stays in balanced.
 */
function dropSignupForms(lines: string[], kind: Uint8Array, keepsValue: (s: string) => boolean, heads: readonly number[]): boolean {
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
    if (t.endsWith(':') || t.endsWith('?') || before.endsWith(':') || before.endsWith('?') || !SIGNUP_HEADINGS.has(key)) continue;
    let email = !BARE_SIGNUP_HEADINGS.has(key);
    let j = i + 1;
    if (j < n && kind[j] === 0 && lines[j]!.trim() === '') j++;
    let k = j;
    let fields = 0;
    let pitches = 0;
    for (; k < n && kind[k] !== 1 && k - j < SIGNUP_MAX_LINES; k++) {
      const line = lines[k]!.trim();
      if (line === '') break;
      const field = chromeKey(line);
      if (SIGNUP_FIELDS.has(field)) {
        fields++;
        email ||= SIGNUP_EMAIL_FIELDS.has(field);
      }
      else if (line.length <= 300 && SIGNUP_CONSENT_RE.test(line)) continue;
      else if (pitches < 2 && line.length <= 200 && !line.endsWith('?') && line.split(/[ \t]+/).length <= SIGNUP_PITCH_MAX_WORDS) pitches++;
      else break;
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
function dropSiteIndex(lines: string[], kind: Uint8Array, keepsValue: (s: string) => boolean, heads: readonly number[]): boolean {
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
const isPageHeading = (key: string): boolean =>
  SIGNUP_HEADINGS.has(key) || NAV_HEADINGS.has(key) || isHeadlineLabel(key) || (key.endsWith('?') && FEEDBACK_RE.test(key));

/** Pager links of a blog or docs page ("Previous" / "Next post", arrows aside). */
const PAGER_PREV: ReadonlySet<string> = new Set(['previous', 'prev', 'previous post', 'previous article', 'previous page', 'previous chapter', 'older post', 'older posts', 'vorherige', 'précédent', 'anterior']);
const PAGER_NEXT: ReadonlySet<string> = new Set(['next', 'next post', 'next article', 'next page', 'next chapter', 'newer post', 'newer posts', 'nächste', 'suivant', 'siguiente']);
/** Headings of a page's own table of contents, whose items are the page's headings said again. */
const TOC_LABELS: ReadonlySet<string> = new Set(['on this page', 'in this article', 'in this section', 'jump to', 'auf dieser seite', 'sur cette page', 'en esta página']);
const ARROWS_RE = /^[«‹←<\s]+|[»›→>\s]+$/g;
const pagerKey = (line: string): string => chromeKey(line.replace(ARROWS_RE, ''));

/**
 * What is left of a page's chrome once the rules above ran (called only for a text with page chrome):
 * - a pager paragraph: "Previous" and "Next" lines (both), each with at most one title line under it;
 * - an "On this page" list whose lines are all said elsewhere in the text as lines (the headings);
 * - in a paragraph where a rule dropped lines, the remaining lines that are menu, footer,
 *   share or chrome labels ("Search" beside a dropped menu, "Comments" over "Leave a comment").
 * A line holding a value stays in balanced.
 */
function dropPageLeftovers(lines: string[], kind: Uint8Array, keepsValue: (s: string) => boolean): boolean {
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
      const t = lines[i]!.trim();
      if (kind[i] === 0 && t.length <= 40 && !t.endsWith(':') && TOC_LABELS.has(chromeKey(t))) {
        let a = i + 1;
        if (a === j && a + 1 < n && kind[a] === 0) a++; // the list may follow after a blank line
        let b = a;
        while (b < n && kind[b] === 0 && lines[b]!.trim() !== '') b++;
        if (b - a >= 2) {
          if (!counts) {
            counts = new Map();
            for (let k = 0; k < n; k++) if (kind[k] !== 1) counts.set(lines[k]!.trim(), (counts.get(lines[k]!.trim()) ?? 0) + 1);
          }
          let said = true;
          for (let k = a; k < b && said; k++) said = (counts.get(lines[k]!.trim()) ?? 0) >= 2;
          if (said) {
            drop(i);
            for (let k = a; k < b; k++) drop(k);
            j = Math.max(j, b);
          }
        }
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
 * consecutive headline lines (isHeadline: 3-20 words, no closing full stop). The heading and the
 * headlines go; a headline holding a value stays in balanced. The run ends at the first other line.
 */
function dropHeadlineRuns(lines: string[], kind: Uint8Array, keepsValue: (s: string) => boolean, heads: readonly number[]): boolean {
  const n = lines.length;
  let changed = false;
  let done = 0; // lines before this one are taken
  for (const i of heads) {
    if (i < done || kind[i] === 1) continue;
    const label = lines[i]!.trim();
    if (label === '' || label.length > 60 || label.endsWith(':') || label.endsWith('?')) continue;
    const key = chromeKey(label);
    if (key === '' || !isHeadlineLabel(key)) continue;
    let j = i + 1;
    if (j < n && kind[j] === 0 && lines[j]!.trim() === '') j++;
    let k = j;
    let headlines = 0;
    for (; k < n && kind[k] === 0 && isHeadline(lines[k]!.trim()); k++) headlines++;
    if (headlines < 2) continue;
    for (let m = i; m < k; m++) {
      if (kind[m] !== 0 || lines[m]!.trim() === '' || keepsValue(lines[m]!)) continue;
      kind[m] = 2;
      changed = true;
    }
    done = k;
  }
  return changed;
}

/** Social networks: a line of 2+ of them alone (any separator) is a "follow us" row. */
const SOCIAL: ReadonlySet<string> = new Set([
  'facebook', 'twitter', 'x', 'linkedin', 'instagram', 'youtube', 'pinterest', 'tiktok', 'whatsapp', 'reddit',
  'threads', 'mastodon', 'bluesky', 'snapchat', 'tumblr', 'vimeo', 'flickr', 'xing', 'telegram', 'email', 'rss',
]);
/** An external-sender warning that mail gateways put above a message. */
const BANNER_RE =
  /^(?:\[?(?:external|caution|warning|attention|notice)(?: e-?mail| sender)?\]?[ \t]*[:!\-–—]?[ \t]*)*(?:this (?:e-?mail|message) (?:has )?(?:originated|came|comes|was sent|is) (?:from )?(?:outside|an? external)|you don'?t often (?:get|receive) e-?mail from|this is an external (?:e-?mail|message|sender))/i;
/** A banner also warns: of links, attachments, the sender, phishing (so "This email came from outside sales" stays). */
const BANNER_CUE_RE = /\b(?:links?|attachments?|sender|caution|careful|vigilant|trust|safe|phishing|suspicious|organi[sz]ation|company)\b/i;
/** "Please note that e-mail may be monitored." alone on a line. */
const MONITOR_RE = /^(?:please note(?: that)? )?(?:e-?mails?|electronic mail|(?:e-?mail )?communications?|this (?:e-?mail|message)) (?:may|might|will|can) be (?:monitored|recorded)\b[^.!?]{0,80}[.!]?$/i;
/** "Please consider the environment before printing this e-mail" and its kin. */
const PRINT_RE = /\bprint(?:ing)? (?:this|the) (?:e-?mail|message)\b/i;
const PRINT_CUE_RE = /\b(?:environment|necessary|needed|tree|trees|think|consider|paper|planet)\b/i;

/** Words that are chrome only as the heading of a link list (the next text line is a link item). */
const LIST_ONLY: ReadonlySet<string> = new Set(['more', 'related', 'recommended', 'trending']);
/** Chrome headings after which aggressive also drops a list of links. */
const RELATED_HEADINGS: ReadonlySet<string> = new Set([
  'more', 'read more', 'related', 'related articles', 'related stories', 'related posts', 'related content', 'related links',
  'related reading', 'related coverage', 'related news', 'recommended', 'recommended for you', 'recommended stories',
  'recommended articles', 'you may also like', 'you might also like', 'more stories', 'more news', 'most popular', 'most read',
  'trending', 'trending now', 'popular posts', 'latest news', 'further reading', 'more from this author',
  ...RELATED_MORE,
]);
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
const isHeadline = (t: string): boolean => {
  if (!HEADLINE_RE.test(t) || HEADLINE_END_RE.test(t)) return false;
  const words = t.split(/[ \t]+/).length;
  return words >= 3 && words <= 20;
};

const QUOTE_PREFIX_RE = /^[ \t]{0,3}(?:>[ \t]?)+/;
const ATTRIBUTION_RE = /(?:wrote|writes|schrieb|a écrit|escribió|scrisse|schreef)[ \t]*:$/i;
const UNDERSCORES_RE = /^[ \t]{0,3}_{3,}[ \t]*$/;
const FENCE_RE = /^[ \t]{0,3}(`{3,}|~{3,})/;
const INDENTED_RE = /^(?: {4}|\t)/;
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

/**
 * A mobile signature line ("Sent from my iPhone"). Its product name reads as an identifier to
 * patterns.ts, but the line is a closed phrase: balanced drops it unless it holds a digit
 * (retention.ts reads values without these lines).
 */
export function isMobileSignature(body: string): boolean {
  return MOBILE_RE.test(body);
}

/** The text without mobile signature lines that hold no digit (what balanced may drop with them). */
export function withoutMobileSignatures(text: string): string {
  if (!/sent|outlook/i.test(text)) return text;
  const lines = text.split('\n');
  const code = codeLines(lines);
  return lines
    .filter((l, i) => {
      if (code[i] === 1) return true;
      const q = QUOTE_PREFIX_RE.exec(l);
      const body = (q ? l.slice(q[0].length) : l).trim();
      return !(body.length <= 300 && MOBILE_RE.test(body) && !/\d/.test(body));
    })
    .join('\n');
}

/** True when `s` holds a value `balanced` must keep (a number, URL, e-mail, quoted string, …). */
export function holdsValue(s: string): boolean {
  for (const re of Object.values(RETAINED_CLASSES)) {
    re.lastIndex = 0;
    if (re.test(s)) {
      re.lastIndex = 0;
      return true;
    }
  }
  return false;
}

/** The line without quote markers, heading, list and emphasis markers and closing punctuation, lower case. */
function chromeKey(body: string): string {
  let s = body.trim();
  if (s.length > 60) return '';
  let a = 0;
  let b = s.length;
  // leading: #, list markers, emphasis, brackets; trailing: emphasis, colon, dots, arrows
  for (;;) {
    const c = s[a];
    if (c === '#' || c === '*' || c === '_' || c === '-' || c === '+' || c === '[' || c === '•' || c === ' ' || c === '\t') a++;
    else break;
  }
  for (;;) {
    const c = s[b - 1];
    if (b > a && (c === '*' || c === '_' || c === ':' || c === '.' || c === '…' || c === '»' || c === '›' || c === '>' || c === ']' || c === ' ' || c === '\t' || c === '→')) b--;
    else break;
  }
  s = s.slice(a, b);
  // No phrase holds a colon or a digit: a speaker turn ("Ann: Yeah .") or a value is not chrome.
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 58 || (c >= 48 && c <= 57)) return '';
  }
  const lower = s.toLowerCase();
  // Only a tab or a run of spaces changes under the collapse: most keys skip the regex.
  return lower.includes('\t') || lower.includes('  ') ? lower.replace(/[ \t]+/g, ' ') : lower;
}

/** Drops the boilerplate of pasted e-mails and pages at `level` (see the module comment). */
export function dropBoilerplate(text: string, level: Level): string {
  if (level === 'safe') return text;
  const aggressive = level === 'aggressive';
  const lines = text.split('\n');
  const n = lines.length;
  /** 0 prose, 1 code (never touched), 2 dropped */
  const kind = codeLines(lines);

  let changed = false;
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
    if ((c0 === 115 || c0 === 103) /* s g */ && body.length <= 300 && isMobileSignature(body)) {
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
    const key = body.length <= 60 ? chromeKey(body) : '';
    if (key !== '' && isPageHeading(key)) heads.push(i);
    if (key !== '' && SALUTATION_LINES.has(endsWithMark(key) ? key.replace(/[,!]+$/, '') : key) && !keepsValue(body)) {
      drop(i);
      continue;
    }
    if (key !== '' && CHROME_LINES.has(key) && !keepsValue(body) && (!LIST_ONLY.has(key) || linkItemFollows(lines, kind, i))) {
      drop(i);
      // A heading of a page's boxes ("Most read", "Sign up for our newsletter") is no sign of a
      // page by itself: a user may paste that box alone to ask about it.
      page ||= !WEBMAIL_BUTTONS.has(key) && !isPageHeading(key);
      if (aggressive && RELATED_HEADINGS.has(key)) related = true;
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

  // Disclaimer paragraphs. A paragraph is read only if it fits (DISCLAIMER_MAX_LINES lines,
  // DISCLAIMER_MAX_CHARS characters as joined) and its own text holds a strong cue's word: a
  // transcript of one long paragraph, or passages of thousands of characters, are not scanned at
  // all. The one cue that can span a line break ("in" | "error") is looked for in the joined
  // paragraph where the paragraph holds "error", and counts only in a text that holds a cue on one
  // line too (`textHasCue`, as when the gate was one scan of the whole text).
  let textHasCue: boolean | undefined;
  for (let i = 0, at = 0; i < n; ) {
    // `at`: where line i starts in `text` (lines from i on are still as in `text`)
    if (kind[i] !== 0 || lines[i]!.trim() === '') {
      at += lines[i]!.length + 1;
      i++;
      continue;
    }
    let j = i;
    let end = at; // where the line after the paragraph starts
    while (j < n && kind[j] === 0 && lines[j]!.trim() !== '') end += lines[j++]!.length + 1;
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
      if (!keepsValue(para)) for (let k = i; k < j; k++) drop(k);
      else {
        // balanced: a line that is a notice by itself (as mail clients paste them, one line) keeps
        // its sentences with a value (under its quote markers); the rest of it goes. Each line is
        // judged alone: a paragraph may join a notice to other text.
        for (let k = i; k < j; k++) {
          const q = QUOTE_PREFIX_RE.exec(lines[k]!);
          const body = (q ? lines[k]!.slice(q[0].length) : lines[k]!).trim();
          if (body.length > DISCLAIMER_MAX_CHARS || !DISCLAIMER_GATE_RE.test(body) || !isDisclaimer(body)) continue;
          const kept = valueSentences(body);
          if (kept === '') drop(k);
          else if (kept.length < body.length) {
            lines[k] = (q?.[0] ?? '') + kept;
            changed = true;
          }
        }
      }
    }
    at = end;
    i = j;
  }

  // Quote markers of a reply quoted under its "… wrote:" line (the markers of every depth go).
  let attributed = false;
  let last = -1; // the last line with text
  for (let i = text.includes('>') ? 0 : n; i < n; i++) {
    const line = lines[i]!;
    if (kind[i] === 2) continue;
    const at = firstNonBlank(line);
    if (at === line.length) continue;
    const q = kind[i] === 0 && line.charCodeAt(at) === 62 ? QUOTE_PREFIX_RE.exec(line) : null;
    if (q) {
      if (!attributed) attributed = last !== -1 && ATTRIBUTION_RE.test(lines[last]!.trim());
      if (attributed) {
        lines[i] = line.slice(q[0].length);
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

/** `<<expression=result>>` as GSM8K-style worked solutions carry it (bounded: linear time). */
const CALCULATOR_NOTE_RE = /<<([^<>=\n]{1,120})=([-+]?\d[\d,]*(?:\.\d+)?)>>/g;
const NOTE_NUMBER_RE = /\d+(?:\.\d+)?/g;

/**
 * Drops the calculator annotations of a line whose text repeats them: the result follows the
 * annotation ("<<48/2=24>>24", not a digit more) and every number of the expression occurs earlier
 * on the line ("48/2 = "). Anything else (a note whose numbers are said nowhere before it) stays.
 */
export function dropCalculatorNotes(line: string): string {
  return line.replace(CALCULATOR_NOTE_RE, (m, expression: string, result: string, offset: number) => {
    const after = offset + m.length;
    if (!line.startsWith(result, after)) return m;
    const c = line.charCodeAt(after + result.length);
    if ((c >= 48 && c <= 57) || ((c === 46 || c === 44) && isDigitAt(line, after + result.length + 1))) return m;
    const before = line.slice(0, offset);
    for (const [number] of expression.matchAll(NOTE_NUMBER_RE)) if (!holdsNumber(before, number)) return m;
    return '';
  });
}

function isDigitAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 48 && c <= 57;
}

/** True when `number` occurs in `text` as a whole number (no digit or decimal part around it). */
function holdsNumber(text: string, number: string): boolean {
  for (let at = text.indexOf(number); at !== -1; at = text.indexOf(number, at + 1)) {
    const end = at + number.length;
    if (at > 0 && (isDigitAt(text, at - 1) || (text.charCodeAt(at - 1) === 46 && isDigitAt(text, at - 2)))) continue;
    if (isDigitAt(text, end) || (text.charCodeAt(end) === 46 && isDigitAt(text, end + 1))) continue;
    return true;
  }
  return false;
}

/** Header names of message transport and client bookkeeping (lower case); X- headers by PERSON_X_RE. */
const TRANSPORT_HEADERS: ReadonlySet<string> = new Set([
  'received', 'return-path', 'delivered-to', 'envelope-to', 'dkim-signature', 'domainkey-signature', 'arc-seal',
  'arc-message-signature', 'arc-authentication-results', 'authentication-results', 'received-spf', 'mime-version',
  'content-type', 'content-transfer-encoding', 'content-language', 'accept-language', 'message-id', 'in-reply-to',
  'references', 'thread-index', 'thread-topic', 'list-unsubscribe', 'list-unsubscribe-post', 'list-id', 'list-archive',
  'list-help', 'list-post', 'list-subscribe', 'list-owner', 'precedence', 'feedback-id', 'user-agent', 'x-mailer',
]);
/** Extension headers (X-…) are servers', filters' and clients' bookkeeping, but for those that name people. */
const PERSON_X_RE = /^x-(?:from|to|cc|bcc|sender|original-from|original-to)$/;
/** The headers that make a block a message header (one of them must be there). */
const MESSAGE_HEADERS: ReadonlySet<string> = new Set(['from', 'to', 'subject', 'date', 'sent']);
/** "Name: value" (or "Name:" alone) of a header line, under quote markers; the name is group 1. */
const HEADER_LINE_RE = /^[ \t]{0,3}(?:>[ \t]?)*([A-Za-z][A-Za-z0-9-]{0,60}):(?:[ \t]|$)/;
/**
 * A line that may open a transport header (the gate of dropTransportHeaders, read in the line
 * loop): "X-…:", a hyphenated name before the colon, or a name of 8 or 10 letters (Received,
 * References, Precedence). The pass itself checks the names.
 */
function mayOpenTransport(body: string): boolean {
  const k = body.indexOf(':');
  if (k < 2 || k > 60) return false;
  if ((body.charCodeAt(0) | 0x20) === 120 /* x */ && body.charCodeAt(1) === 45 /* - */) return true;
  const dash = body.indexOf('-');
  return (dash > 0 && dash < k) || k === 8 || k === 10;
}
const HEADER_BLOCK_MIN = 3;

/**
 * Drops transport headers (see the module comment) in each header block of `lines`: in aggressive
 * all of them, in balanced those whose value holds no protected value. A folded header's
 * continuation lines (opening with a blank) go with it. Returns whether a line was dropped.
 */
function dropTransportHeaders(lines: string[], kind: Uint8Array, aggressive: boolean): boolean {
  const n = lines.length;
  let dropped = false;
  for (let i = 0; i < n; ) {
    if (kind[i] !== 0 || !HEADER_LINE_RE.test(lines[i]!)) {
      i++;
      continue;
    }
    // The block: header lines and their continuations, up to a blank or other line.
    const names: string[] = [];
    const starts: number[] = [];
    let j = i;
    for (; j < n && kind[j] === 0; j++) {
      const line = lines[j]!;
      const m = HEADER_LINE_RE.exec(line);
      if (m) {
        names.push(m[1]!.toLowerCase());
        starts.push(j);
      } else if (j === i || line.trim() === '' || !(line.charCodeAt(0) === 32 || line.charCodeAt(0) === 9)) break;
    }
    if (names.length >= HEADER_BLOCK_MIN && names.some((x) => MESSAGE_HEADERS.has(x))) {
      for (let h = 0; h < names.length; h++) {
        const name = names[h]!;
        const from = starts[h]!;
        const to = h + 1 < starts.length ? starts[h + 1]! : j;
        let value = lines[from]!.slice(lines[from]!.indexOf(':') + 1);
        for (let k = from + 1; k < to; k++) value += ' ' + lines[k]!;
        const empty = value.trim() === '';
        const transport = TRANSPORT_HEADERS.has(name) || (name.startsWith('x-') && !PERSON_X_RE.test(name));
        if (empty || (transport && (aggressive || !holdsValue(value)))) {
          for (let k = from; k < to; k++) kind[k] = 2;
          dropped = true;
        }
      }
    }
    i = j > i ? j : i + 1;
  }
  return dropped;
}

/** The key ends with a comma or an exclamation mark (a salutation's "Hi," / "Thanks!"). */
const endsWithMark = (key: string): boolean => key.endsWith(',') || key.endsWith('!');

/** Index of the first character of `line` that is not a space or tab. */
function firstNonBlank(line: string): number {
  let i = 0;
  while (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9) i++;
  return i;
}

/** The line without its quote markers, trimmed: how a paragraph's lines are joined for the disclaimer test. */
function quoteBody(line: string): string {
  const q = line.charCodeAt(firstNonBlank(line)) === 62 /* > */ ? QUOTE_PREFIX_RE.exec(line) : null;
  return (q ? line.slice(q[0].length) : line).trim();
}

/** Lower-cased first letters FOOTER_RE can match at (t u c i y v h m r). */
const FOOTER_FIRST: ReadonlySet<number> = new Set([...'tuciyvhmr'].map((ch) => ch.charCodeAt(0)));

/** Per line: 1 inside a fence or indented code (never touched), else 0. */
function codeLines(lines: readonly string[]): Uint8Array {
  const n = lines.length;
  const kind = new Uint8Array(n);
  let fence = '';
  for (let i = 0; i < n; i++) {
    const line = lines[i]!;
    const c = line.charCodeAt(firstNonBlank(line));
    const mayFence = c === 96 || c === 126; // ` ~
    if (fence) {
      kind[i] = 1;
      const m = mayFence ? FENCE_RE.exec(line) : null;
      if (m && m[1]![0] === fence[0] && m[1]!.length >= fence.length && line.trim() === m[1]) fence = '';
      continue;
    }
    const m = mayFence ? FENCE_RE.exec(line) : null;
    if (m) {
      fence = m[1]!;
      kind[i] = 1;
      continue;
    }
    const c0 = line.charCodeAt(0);
    if ((c0 === 32 || c0 === 9) && INDENTED_RE.test(line) && !QUOTE_PREFIX_RE.test(line)) kind[i] = 1;
  }
  return kind;
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

/** Sentence ends: ". ", "! ", "? " before a capital, a digit-free opener or a quote. */
const SENTENCE_END_RE = /(?<=[.!?])[ \t]+(?=[A-Z"'‘“(])/;

/** The sentences of a disclaimer paragraph that hold a value, joined by one space. */
function valueSentences(para: string): string {
  return para
    .split(SENTENCE_END_RE)
    .filter((x) => holdsValue(x))
    .join(' ');
}

/** Strips emphasis and bracket markers around a short line (the rules run before emphasis removal). */
function plainLine(body: string): string {
  return body.replace(/^[*_\[( \t]+|[*_\]) \t]+$/g, '').replace(/[*_]{2,}/g, '');
}

/**
 * A word every notice line holds, or one of the separators | · • (one scan of the line rules the
 * rest out). The separators are found with includes(): as a character class inside this
 * alternation they made the scan about three times slower.
 */
const NOTICE_GATE_RE = /outside|external|often|monitor|record|print|facebook|twitter|linkedin|instagram|youtube|pinterest|tiktok|whatsapp|reddit|threads|mastodon|bluesky|snapchat|tumblr|vimeo|flickr|xing|telegram/i;
const mayBeNotice = (body: string): boolean => body.includes('|') || body.includes('·') || body.includes('•') || NOTICE_GATE_RE.test(body);

/** An external-sender banner, a footer link row, a social row or a print notice. */
function isNoticeLine(body: string): boolean {
  if (body.length > LINE_RULE_MAX_CHARS || !mayBeNotice(body)) return false;
  const plain = plainLine(body);
  if ((BANNER_RE.test(plain) && BANNER_CUE_RE.test(plain)) || MONITOR_RE.test(plain)) return true;
  if (body.length <= 200 && PRINT_RE.test(plain) && PRINT_CUE_RE.test(plain)) return true;
  if (body.length > 160) return false;
  if (/[|·•]/.test(plain)) {
    const items = plain.split(/[ \t]*[|·•,][ \t]*/).map((x) => x.replace(/[*_]/g, '').trim().toLowerCase()).filter((x) => x !== '');
    if (items.length >= 2 && items.every((x) => FOOTER_LINKS.has(x) || SOCIAL.has(x))) return true;
  }
  const words = plain.replace(/[*_|·•,]/g, ' ').trim().toLowerCase().split(/[ \t]+/);
  return words.length >= 2 && words.every((w) => SOCIAL.has(w)) && words.some((w) => w !== 'email' && w !== 'x' && w !== 'rss');
}

/** Two distinct cues, one of them strong (holding a word of DISCLAIMER_GATE_RE, or the opener). */
function isDisclaimer(para: string): boolean {
  const cues = new Set<string>();
  let strong = DISCLAIMER_OPENER_RE.test(para);
  if (strong) cues.add('opener');
  DISCLAIMER_CUE_RE.lastIndex = 0;
  for (const m of para.matchAll(DISCLAIMER_CUE_RE)) {
    cues.add(m[0].toLowerCase().split(/[ \t]/)[0]!);
    strong ||= DISCLAIMER_GATE_RE.test(m[0]);
    if (cues.size >= 2 && strong) return true;
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
