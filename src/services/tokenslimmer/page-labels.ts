/**
 * The labels of a page pasted as text (boilerplate.ts, page-menus.ts, page-boxes.ts): chrome lines,
 * footer links, menu items, social networks, related-story headings, and chromeKey, the form of a
 * line they are looked up by. Some labels are German, French, Spanish, Italian.
 */

/** The long lines of a blog's comment form ("Your email address will not be published. Required fields are marked *"). */
export const COMMENT_FORM_RE =
  /^(?:your e-?mail address will not be published\.?(?: required fields are marked \*)?|required fields are marked \*|save my name, e-?mail, and website in this browser for the next time i comment\.?|you must (?:be logged in|log in(?: or register)?) to (?:post a comment|comment|reply(?: here)?)\.?)$/i;

/** Headings of related and popular stories, also as chrome lines alone (CHROME_LINES), and a few in German, French, Spanish, Italian. */
export const RELATED_MORE = [
  'more like this', 'read next', 'up next', 'what to read next', 'top stories', 'most viewed', 'most shared', 'most commented',
  'recent posts', 'recent articles', 'latest posts', 'latest stories', 'latest articles', 'similar articles', 'similar posts',
  'similar threads', 'customers also bought', 'customers also viewed', 'customers who bought this item also bought',
  "editors' picks", "editor's picks", 'editors picks', 'in case you missed it', 'more headlines', 'recommended reading',
  'mehr zum thema', 'meistgelesen', 'meistgelesene artikel', 'das könnte sie auch interessieren', 'lesen sie auch', 'weitere artikel',
  'à lire aussi', 'lire aussi', 'sur le même sujet', 'les plus lus', 'articles similaires', 'te puede interesar',
  'noticias relacionadas', 'lo más leído', 'más leídas', 'leggi anche', 'più letti', 'articoli correlati',
];
/** Buttons of a web mail view: chrome lines, but no sign of a pasted page (and no menu item). */
export const WEBMAIL_BUTTONS: ReadonlySet<string> = new Set(['reply', 'reply all', 'forward', 'reply to all', 'show quoted text', 'show trimmed content']);
/** Page chrome: a line that is only one of these (lower case, after markers; see `chromeKey`). */
export const CHROME_LINES: ReadonlySet<string> = new Set([
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
  'advertisement', 'advertisements', 'story continues below advertisement',
  'article continues below advertisement', 'skip to content', 'skip to main content', 'skip to navigation',
  'back to top', 'jump to navigation', 'toggle navigation', 'close menu', 'open menu', 'skip to the content',
  'sign up for our newsletter', 'subscribe to our newsletter', 'newsletter sign up',
  'leave a comment', 'show comments', 'view comments', 'add a comment', 'copy link', 'link copied',
  // comment forms (WordPress and kin) and recipe cards
  'leave a reply', 'leave a review', 'post comment', 'submit comment', 'cancel reply', 'comments are closed',
  'jump to recipe', 'print recipe', 'pin recipe', 'save recipe', 'rate this recipe',
  // a wiki's (MediaWiki) skip links, tools and contents toggle
  'jump to content', 'jump to search', 'jump to main content', 'main menu', 'personal tools', 'toggle the table of contents', 'edit links', 'view history',
  'what links here', 'related changes', 'permanent link', 'page information', 'cite this page', 'download as pdf',
  'printable version', 'from wikipedia, the free encyclopedia', 'from wikipedia the free encyclopedia',
  // a docs page's edit and feedback links
  'edit this page', 'edit on github', 'suggest edits', 'improve this page', 'report an issue',
  // the same chrome in German, French, Spanish, Italian
  'anzeige', 'werbung', 'publicité', 'publicidad', 'pubblicità', 'teilen', 'artikel teilen', 'partager', 'compartir', 'condividi',
  'zum inhalt springen', 'aller au contenu', 'ir al contenido', 'vai al contenuto', 'weiterlesen', 'lire la suite', 'leer más',
  'direkt zum inhalt', 'zum hauptinhalt springen', 'zur navigation springen', 'zur suche springen', 'aller au contenu principal',
  'aller au menu', 'aller à la recherche', 'aller au pied de page', 'saltar al contenido', 'ir al menú', 'salta al contenuto',
  'vai al menu', 'pular para o conteúdo', 'ir para o conteúdo', 'naar de inhoud', 'ga naar inhoud', 'naar hoofdinhoud',
  'imprimer', 'imprimer la page', 'envoyer par e-mail', 'envoyer par email', 'copier le lien', 'drucken', 'seite drucken',
  'link kopieren', 'per e-mail teilen', 'per e-mail senden', 'imprimir', 'copiar enlace', 'enviar por correo', 'stampa',
  'copia link', 'invia per email', 'partilhar', 'copiar link', 'delen', 'afdrukken', 'link kopiëren',
  'gestion des cookies', 'cookie-einstellungen', 'configuración de cookies', 'impostazioni cookie',
  // buttons of a web mail or forum view pasted with the text
  ...WEBMAIL_BUTTONS,
  ...RELATED_MORE,
]);

/** Labels of footer links: a line of 2+ of them, separated by | · • or commas, is a footer. */
export const FOOTER_LINKS: ReadonlySet<string> = new Set([
  'terms', 'terms and conditions', 'terms & conditions', 'terms of use', 'terms of service', 'privacy', 'privacy policy',
  'privacy notice', 'privacy statement', 'cookie policy', 'cookies', 'cookie settings', 'unsubscribe', 'preferences',
  'manage preferences', 'email preferences', 'update preferences', 'contact', 'contact us', 'help', 'help center',
  'help centre', 'support', 'view in browser', 'view online', 'about', 'about us', 'accessibility', 'legal', 'imprint',
  'impressum', 'sitemap', 'careers', 'faq', 'faqs', 'newsletter', 'advertise', 'press',
  'datenschutz', 'datenschutzerklärung', 'kontakt', 'agb', 'mentions légales', 'confidentialité', 'aviso legal',
  'política de privacidad', 'privacidad', 'contacto', 'note legali',
]);
/** Items of a site's menu besides the footer, social and chrome labels: two of them in a run of 3+ short lines make it a menu (dropMenuBlocks). */
export const MENU_ITEMS: ReadonlySet<string> = new Set([
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

/** Social networks: a line of 2+ of them alone (any separator) is a "follow us" row. */
export const SOCIAL: ReadonlySet<string> = new Set([
  'facebook', 'twitter', 'x', 'linkedin', 'instagram', 'youtube', 'pinterest', 'tiktok', 'whatsapp', 'reddit',
  'threads', 'mastodon', 'bluesky', 'snapchat', 'tumblr', 'vimeo', 'flickr', 'xing', 'telegram', 'email', 'rss',
]);

/** Words that are chrome only as the heading of a link list (the next text line is a link item). */
export const LIST_ONLY: ReadonlySet<string> = new Set(['more', 'related', 'recommended', 'trending']);
/** Chrome headings after which aggressive also drops a list of links. */
export const RELATED_HEADINGS: ReadonlySet<string> = new Set([
  'more', 'read more', 'related', 'related articles', 'related stories', 'related posts', 'related content', 'related links',
  'related reading', 'related coverage', 'related news', 'recommended', 'recommended for you', 'recommended stories',
  'recommended articles', 'you may also like', 'you might also like', 'more stories', 'more news', 'most popular', 'most read',
  'trending', 'trending now', 'popular posts', 'latest news', 'further reading', 'more from this author',
  ...RELATED_MORE,
]);

/** A label of the menu, footer, social or chrome tables (a key of chromeKey). */
export const isKnownLabel = (key: string): boolean => MENU_ITEMS.has(key) || FOOTER_LINKS.has(key) || SOCIAL.has(key) || CHROME_LINES.has(key);
/** A known label that shows a page, not a web mail view ("Reply", "Forward"). */
export const isPageLabel = (key: string): boolean => isKnownLabel(key) && !WEBMAIL_BUTTONS.has(key);

/** The line without quote markers, heading, list and emphasis markers and closing punctuation, lower case. */
/** Inline links of a line read as their text ("More on [Books](/tag/books)" is "More on Books"); images stay. */
const INLINE_LINK_RE = /(?<!!)\[([^\]\n]{0,300})\]\([^()\s]{0,2000}\)/g;
export const linkText = (line: string): string => (line.includes('](') ? line.replace(INLINE_LINK_RE, '$1') : line);

export function chromeKey(body: string): string {
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
