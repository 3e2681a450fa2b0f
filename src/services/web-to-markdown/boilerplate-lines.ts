/**
 * Short standalone lines inside the chosen content that are page furniture, not article text:
 * a dateline ("Updated 1:39 am EST, Wednesday, November 20, 2019"), a byline ("By Jane Doe and
 * John Roe"), a newsletter prompt, a follow-us line, a photo caption ending in its credit; among
 * the last blocks, an author note or the site's copyright notice. (Affiliate notices are not among
 * them: the development references keep them on some pages and drop them on others.) Each is recognised by how it is
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
    'opublikowano|zaktualizowano|publicerad|uppdaterad|yayınlanma|güncellenme|입력|수정|' +
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
  /(?:^|[.!?:]\s+)(?:click here to |please |and )?(?:subscribe|sign up|get|join|register|abonnieren sie|melden sie sich|abonnez-vous|inscrivez-vous|suscr[íi]bete|iscriviti|assine|inscreva-se|подпишитесь)(?![\p{L}\p{N}])|newsletter (?:abonnieren|bestellen)/iu;
const NEWSLETTER = /newsletter|mailing list|infolettre|рассылк/iu;

/** "Follow us on Twitter", "Follow Newsbeat on Instagram", "Folgen Sie uns auf Facebook". */
const FOLLOW =
  /(?:^|[.!?]\s+)(?:follow|folgen sie|suivez|síguenos|seguici|siga-nos|подписывайтесь)(?![\p{L}\p{N}]).{0,60}\b(?:twitter|facebook|instagram|linkedin|youtube|tiktok|telegram|mastodon|bluesky|threads|x\.com)\b/iu;

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
  '^(?:on |published |updated )?(?:(?:' + WEEKDAY + ')\\.?,? )?(?:(?:(?:' + MONTH + ')\\.? \\d{1,2}(?:st|nd|rd|th)?,? (?:19|20)\\d\\d|\\d{1,2}(?:st|nd|rd|th)?\\.? (?:' + MONTH + ')\\.?,? (?:19|20)\\d\\d|\\d{1,2}[./-]\\d{1,2}[./-](?:19|20)?\\d\\d|(?:19|20)\\d\\d[./-]\\d\\d?[./-]\\d\\d?)\\b|(?:19|20)\\d\\d年\\d{1,2}月\\d{1,2}日)',
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
    // A source's name: capitalised, or in a script without letter case ("来源：新华日报").
    if (!/^[\p{Lu}\p{Lo}]/u.test(w) || ++capitals > 3) return false;
  }
  return true;
}

/**
 * The label an ad slot prints above the ad, alone on its line ("Advertisement", "Anzeige",
 * "Publicité", "Publicidad", "広告", "广告"), the note around it ("Story continues below
 * advertisement"), and the slot's size where an ad unit prints it in place of the ad (the IAB
 * banner sizes: "728x90", "300x250"). Only the whole line: "Advertisement revenue fell" or a
 * heading "Advertising" (a section on a company page) stays.
 */
const AD_LABEL =
  /^(?:[-–—\s]*)(?:advertisement|advertising|advert|ads?|sponsored(?: (?:content|links?|stories|posts?))?|paid content|anzeige|werbung|publicité|publicidad|anuncio|pubblicità|publicidade|advertentie|reclame|annons|annonse|reklama|reklam|реклама|广告|廣告|広告|광고|(?:the )?(?:story|article) continues below(?: (?:this )?advertisement)?|continue reading below|(?:728|970)\s?[x×]\s?90|970\s?[x×]\s?250|468\s?[x×]\s?60|320\s?[x×]\s?(?:50|100)|300\s?[x×]\s?(?:250|600)|336\s?[x×]\s?280|250\s?[x×]\s?250|(?:160|120)\s?[x×]\s?600)(?:[-–—:.…\s]*)$/iu;

/**
 * A rating widget's line: a score out of a maximum with the number of votes or a star word
 * ("4.8 from 12 votes", "4,5 sur 5 (8 avis)", "Rated 4.5 out of 5 stars", "4,7 von 5 Sternen
 * (23 Bewertungen)"). A score alone ("3 out of 4") is not enough: a list may count that way.
 */
const RATING =
  /^(?:rated |note : |bewertung: )?\d(?:[.,]\d{1,2})?\s*(?:out of|from|of|sur|de|von|su|\/)\s*\d{1,2}(?:[.,]\d)?\s*(?:(?:stars?|étoiles?|estrellas?|sternen?|stelle)\b\s*)?(?:[(（]?\s*(?:from |based on |sur |de |aus )?\d[\d.,]*\s*(?:votes?|ratings?|reviews?|avis|votos?|valoraciones?|opiniones?|bewertungen?|stimmen?|voti|recensioni)\s*[)）]?)?\.?$/iu;
const RATING_COUNT_OR_STARS = /\d\s*(?:votes?|ratings?|reviews?|avis|votos?|valoraciones?|opiniones?|bewertungen?|stimmen?|voti|recensioni)\b|stars?\b|étoiles?|estrellas?|sternen?|stelle\b|^rated /iu;

/**
 * The question of a "was this helpful?" widget, alone on its line, with its Yes/No answers if
 * they render ("Was this page helpful?", "Was this helpful?", "War dieser Artikel hilfreich?", "Cet article vous
 * a-t-il été utile ?", "¿Te resultó útil este artículo?", "この記事は役に立ちましたか？",
 * "这篇文章对您有帮助吗？"). The whole line only: a sentence that asks it inside prose stays.
 */
const HELPFUL =
  /^(?:(?:was|is|did) (?:this|the) (?:page|article|answer|post|information|content|documentation|guide|section)(?: \S+){0,2} (?:helpful|useful|help(?: you)?)|(?:was|is) this (?:helpful|useful)|did this help(?: you)?|did (?:this|the) (?:page|article|answer|guide) help(?: you)?|(?:find|found) (?:this|the) (?:page|article|answer) (?:helpful|useful)|(?:war|ist) (?:diese[rs]?|der|die|das) (?:seite|artikel|beitrag|antwort|information(?:en)?) hilfreich|(?:cet|cette|la) (?:article|page|réponse)(?: vous)? (?:a-t-(?:il|elle) été|est-(?:il|elle)) utile|¿?(?:te |le )?(?:ha resultado|resultó|fue|es|ha sido) útil (?:este|esta) (?:artículo|página|respuesta)|¿?(?:este|esta) (?:artículo|página|respuesta) (?:te |le )?(?:ha resultado|resultó|fue|es|ha sido) útil|この(?:記事|ページ)は(?:役に立ちましたか|お役に立ちましたか)|(?:这篇|此|该)(?:文章|页面)(?:对您)?(?:是否)?有(?:帮助|用)(?:吗)?|(?:este|esta|o|a) (?:artigo|página|resposta) (?:foi|é) útil(?: para (?:você|vocês|si))?|(?:questo|l.)\s?(?:articolo|pagina|risposta) (?:è stat[oa] )?utile|\d[\d,.]* (?:of|out of|von|sur|de|di) \d[\d,.]* (?:people |users |personen |personnes |personas )?(?:found (?:this|it) (?:helpful|useful)|fanden (?:dies|das) hilfreich|ont trouvé (?:ceci|cela) utile|encontraron esto útil))\s*[?？]?\s*(?:(?:yes|no|ja|nein|oui|non|sí|no|はい|いいえ|是|否)\b\s*){0,2}$/iu;

/**
 * Article controls and prompts alone on their line, as the page prints them beside the text:
 * a share label ("Share this article", "Share this note", "Teilen Sie diesen Artikel", "Partager cet article"), a
 * reading time ("5 min read", "Lesezeit: 3 Minuten", "読了時間：約3分"), a listen button's label
 * ("Listen to this article", "Artikel anhören"), a back-to-top link ("Nach oben", "ページの先頭へ
 * 戻る", "返回顶部"), a gallery's counter and buttons ("Image 1 of 8", "Back to Gallery", "Caption",
 * "Close", "Next"). Whole lines only.
 */
const CONTROL_LINE = new RegExp(
  '^(?:share(?: this(?: [a-z]+)?| (?:article|story|post|page))?(?: on (?:facebook|twitter|x|linkedin|whatsapp|email))?|(?:teilen sie )?diesen (?:artikel|beitrag) teilen|teilen sie diesen (?:artikel|beitrag)|artikel teilen|' +
    'delen|deel dit artikel|udostępnij|dela|поделиться|paylaş|공유하기|' +
    'partager(?: cet article| sur (?:facebook|twitter|x|linkedin|whatsapp))?|compartir(?: este artículo| en redes sociales| en (?:facebook|twitter|x|whatsapp))?|condividi(?: questo articolo| su (?:facebook|twitter|x|whatsapp))?|compartilhe(?: este artigo)?|シェアする|分享到|' +
    '(?:reading time|read time|lesezeit|lesedauer|temps de lecture|tiempo de lectura|tempo di lettura|tempo de leitura)\\s*[:：]?\\s*(?:ca\\.\\s*)?\\d{1,3}\\s*(?:min(?:ute)?s?|minuten|minutos|minuti)\\.?|\\d{1,3}\\s*min(?:ute)?s?\\.? read|' +
    '読了時間\\s*[:：]?\\s*約?\\d{1,3}\\s*分|阅读时间\\s*[:：]?\\s*约?\\d{1,3}\\s*分钟|' +
    'listen to (?:this )?(?:article|story)|(?:diesen )?artikel (?:vor)?(?:an)?hören|écouter (?:cet article|l.article)|escuchar (?:este artículo|la noticia)|ascolta (?:l.)?articolo|ouvir (?:este )?artigo|' +
    'skip to (?:main )?content|skip to navigation|zum inhalt springen|aller au contenu|saltar al contenido|vai al contenuto|ir para o conteúdo|' +
    'naar de inhoud|przejdź do treści|hoppa till innehållet|перейти к содержанию|içeriğe geç|본문 바로가기|' +
    'back to top|return to top|nach oben|naar boven|do góry|till toppen|наверх|başa dön|맨 위로|zurück nach oben|retour en haut(?: de (?:la )?page)?|haut de page|volver arriba|ir arriba|torna su|voltar ao topo|ページ(?:の)?(?:トップ|先頭)へ(?:戻る)?|返回顶部|' +
    // A gallery's or slideshow's controls: its counter ("Image 1 of 8", "3 / 12") and buttons.
    '(?:(?:image|photo|picture|slide|bild|foto|imagen|immagine)s?\\s+)?\\d{1,3}\\s*(?:of|von|de|di|sur|/)\\s*/?\\s*\\d{1,3}|' +
    '(?:back to|return to|view|open|zurück zur|retour à la|volver a la|torna alla) (?:the )?(?:gallery|slideshow|galerie|galería|galleria)|' +
    // A forum quote's expander, a docs page's edit link, a script's loading placeholder.
    'click to expand(?:\\.{3}|…)?|suggest edits?|(?:loading|chargement|wird geladen|cargando|caricamento|carregando|読み込み中|加载中)\\s?(?:\\.{3}|…)?|' +
    '(?:show|hide|toggle) caption|caption|close|schließen|fermer|cerrar|chiudi|fechar|閉じる|关闭|previous|prev|next|enlarge (?:this )?image|' +
    // A text-size control ("小字号", "字号：大 中 小").
    '[大中小]字[号號]|(?:字[号號体體]\\s*[:：]?\\s*)?(?:[大中小]\\s*){2,3})' +
    '\\s*[:：↑^]?$',
  'iu',
);

/**
 * A paywall, app or support prompt: a line that opens with the offer ("Subscribe to continue
 * reading", "Dieser Artikel ist nur für Abonnenten …", "Cet article est réservé aux abonnés",
 * "Descarga nuestra app …", the "この記事が気に入ったら…" that Japanese blog platforms and themes
 * print under a post to ask for a like, a follow or a tip), or a notice to the browser ("This site
 * is best viewed with JavaScript enabled", "Your browser does not support the video tag"). Only at
 * the line's start: a sentence reporting that an article was for subscribers opens otherwise.
 */
const PROMPT_START = new RegExp(
  '^(?:subscribe (?:now )?to (?:continue|keep) reading|(?:this|the) (?:article|story|content) is (?:only )?(?:available|reserved|exclusive) (?:only )?(?:to|for) (?:subscribers|members)|' +
    '(?:dieser|der) (?:artikel|beitrag|inhalt) ist (?:nur|exklusiv) für (?:abonnenten|abonnentinnen|\\S+-abonnenten|abonnierende)|' +
    '(?:cet|cette) (?:article|contenu) est réservée? aux abonnés|abonnez-vous pour lire la suite|' +
    '(?:este|esta) (?:artículo|contenido|noticia) es exclusiv[oa] para (?:suscriptores|socios|abonados)|suscríbete para (?:seguir|continuar) leyendo|' +
    "(?:questo articolo|l'articolo) è riservato agli abbonati|(?:este|esta) (?:artigo|conteúdo|matéria) é exclusiv[oa] para assinantes|この記事は有料会員限定|本文为会员专享|この記事が(?:気に入ったら|良かったら|よかったら)|" +
    '(?:you must |please )?(?:log ?in|sign ?in|register)(?: or (?:register|sign up|log ?in))? to (?:reply|comment|post|join the discussion)|' +
    '(?:download|get) (?:our|the) (?:free )?app\\b|laden sie (?:jetzt )?(?:unsere|die) (?:kostenlose )?app|téléchargez (?:notre|l.)\\s?application|descarga (?:nuestra|la) app\\b|' +
    // A notice to the browser, as a page prints it where scripts do not run.
    '(?:this (?:site|website|page) is best viewed|(?:please |you (?:need|must|have) to )?(?:enable|turn on|activate) javascript|javascript (?:is|must be) (?:disabled|required|enabled)|' +
    "your browser (?:does not|doesn't|do not) support|you are using an? (?:outdated|old|unsupported) browser|" +
    'bitte aktivieren sie javascript|javascript (?:ist )?deaktiviert|veuillez activer (?:le )?javascript|(?:por favor,? )?(?:habilita|activa) (?:el )?javascript|attiva(?:re)? javascript|ative o javascript))',
  'iu',
);

/**
 * An engagement count standing alone: a number and what was counted ("3 Likes", "1.2K views",
 * "14 replies", "5 Kommentare"), as forums and blogs print under a post. "3 likes and a dislike"
 * or "2 Answers" (a Q&A page's heading over its answers) read otherwise and stay.
 */
const ENGAGEMENT_COUNT =
  /^\d[\d.,]*\s?[km]?\s+(?:likes?|comments?|replies|views?|shares?|claps?|votes?|reactions?|reposts?|retweets?|upvotes?|kommentare?|commentaires?|comentarios?|commenti|antworten|réponses|respuestas|vues|aufrufe)$/iu;

/**
 * A post's tag or category line: a label and a short list of topics ("Tags: Alibaba, Retail",
 * "Filed under: Politics |", "Schlagwörter: Berlin", "标签：经济"). A sentence after the label
 * ("Topics: the council discussed the budget.") ends in a full stop and stays; a paper's
 * "Keywords:" line is its content and is not among them.
 */
const TAGS_LINE = /^(?:tags?|tagged(?: with| as| in)?|filed under|posted in|categories|category|schlagwörter|schlagworte|stichwörter|étiquettes|etiquetas|标签|標籤|タグ)\s*[:：]\s*[^.!?。]{1,150}$/iu;

/** A relative date alone: "Updated 3 months ago", "Posted about an hour ago". */
/**
 * A wiki's or docs page's info line: the page's name or path, then when and by whom it was last
 * changed ("start.txt · Last modified: 2024/02/25 19:12 by ann", "This page was last edited on 3
 * March 2024, at 10:15"). A sentence that speaks of an edit has no such separator before it.
 */
const PAGE_INFO_LINE = /(?:^|[·•|]\s*)(?:last (?:modified|edited|updated|changed)|this page was last (?:edited|modified|updated)(?: on)?)\s*:?\s*\d[^.!?]*$/i;
const RELATIVE_DATE_LINE = /^(?:updated|posted|published|edited|last (?:updated|edited))\s+(?:about\s+)?(?:\d{1,3}|an?|one)\s+(?:second|minute|hour|day|week|month|year)s?\s+ago\.?$/i;

/** Why a short standalone line reads as page furniture, or null when it does not. */
export function boilerplateLineKind(line: string, heading = false): 'dateline' | 'byline' | 'sign-up' | 'follow' | 'credit' | 'count' | 'ad-label' | 'rating' | 'helpful' | 'control' | 'tags' | 'prompt' | null {
  const t = line.trim();
  if (t.length === 0 || t.length > MAX_LINE) return null;
  if (t.length <= 40 && ENGAGEMENT_COUNT.test(t)) return 'count';
  if (!heading && t.length <= 60 && AD_LABEL.test(t)) return 'ad-label';
  if (t.length <= 80 && RATING.test(t) && RATING_COUNT_OR_STARS.test(t)) return 'rating';
  if (t.length <= 90 && HELPFUL.test(t)) return 'helpful';
  if (t.length <= 60 && CONTROL_LINE.test(t)) return 'control';
  if (!heading && t.length <= 170 && TAGS_LINE.test(t)) return 'tags';
  if (!heading && PROMPT_START.test(t)) return 'prompt';
  if (t.length <= 110 && DATELINE.test(t) && YEAR_OR_TIME.test(t)) return 'dateline';
  if (t.length <= 60 && RELATIVE_DATE_LINE.test(t)) return 'dateline';
  if (t.length <= 160 && PAGE_INFO_LINE.test(t) && YEAR_OR_TIME.test(t)) return 'dateline';
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
export const RELATED_LABEL = new RegExp(
  '^(?:related(?: posts?| stories| articles| coverage(?: from .{1,40})?| content| reading| links| news| videos?)?|read more|read also|also read|see also|recommended(?: for you| stories| articles| reading)?|' +
    'you (?:may|might) also (?:like|enjoy)|more (?:\\S+ ){0,3}(?:stories|articles|posts|reads|videos)|more from .{1,40}|' +
    'most (?:read|popular|viewed|shared)(?: (?:stories|articles|now|today))?|trending(?: now| stories)?|top stories|don[\'’]t miss|editor[\'’]?s picks|' +
    'latest (?:news|stories|headlines|articles|posts)|' +
    'mehr zum thema|weitere artikel|lesen sie auch|auch interessant|das könnte sie auch interessieren|meistgelesen|lire aussi|à lire aussi|voir aussi|sur le même sujet|les plus lus|' +
    'leia também|veja também|leia mais|mais lidas|leggi anche|potrebbe interessarti|i più letti|lee también|te puede interesar|noticias relacionadas|artículos relacionados|lo más leído|' +
    'lees ook|meest gelezen|czytaj (?:także|też)|zobacz (?:także|też)|najczęściej czytane|läs (?:också|även)|mest lästa?|ilgili haberler|[iİ]lg[iİ]n[iİ]z[iİ] çekeb[iİ]l[iİ]r|관련기사|많이 본 뉴스|читайте также|по теме|相关阅读|相关文章|相关新闻|推荐阅读|延伸阅读|热点排行|関連記事|あわせて読みたい|人気記事)' +
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
 * "Phil Helsel is a reporter for NBC News.", "Write to Al Root at ...", "... may be reached at", a
 * Korean reporter's sign-off ("김민준 기자 mjkim@example.kr").
 * Only tested on the last blocks of the content (see AUTHOR_NOTE_TAIL), where such notes sit; the
 * same sentence inside an article about a reporter stays.
 */
const AUTHOR_NOTE =
  /contributed (?:reporting|to this (?:report|story|article))|^write to \p{Lu}\S* \p{Lu}\S*(?: \p{Lu}\S*)? at |(?:may|can) be (?:reached|contacted) at |^(?:\p{Lu}[\p{L}'’.-]* ){1,4}(?:\([^)]{0,60}\) )?is (?:an? |the )(?:[\p{L}-]+ ){0,4}(?:reporter|writer|editor|correspondent|journalist|columnist|contributor|publisher)\b|views (?:and opinions )?expressed (?:in this article )?are (?:those of )?the author|^\p{Script=Hangul}{2,4} ?(?:기자|특파원)(?: *[\w.+-]+@[\w.-]+)? *$/iu;

/**
 * The same note in German, French, Spanish, Italian, Dutch and Portuguese: a name and the trade
 * ("Jana Müller ist Redakteurin im Ressort Stadt.", "Marie Dupont est journaliste au service
 * politique.", "Ana García es periodista y cubre…"), with an article or "since 2015" between. The
 * name's words must not open with a pronoun, determiner or possessive ("Sein Vater ist Journalist":
 * German capitalises nouns, so capitals alone do not make a name), and no negation may follow.
 */
const AUTHOR_NOTE_OTHER =
  /^(?!.*(?<!\p{L})(?:kein|keine|nicht|pas|no|non|niet|geen|não)(?!\p{L}))(?!(?:sie|er|es|ich|wir|il|elle|je|on|nous|él|ella|yo|lui|lei|io|hij|zij|ze|ik|ele|ela|eu|der|die|das|den|dem|ein|eine|sein|seine|ihr|ihre|mein|meine|unser|unsere|le|la|les|l'|un|une|son|sa|ses|mon|ma|el|los|las|su|sus|mi|il|lo|gli|suo|sua|de|het|een|zijn|haar|o|a|os|as|seu|sua)\s)(?:\p{Lu}[\p{L}'’.-]* ){1,4}(?:ist|est|es|è|is|é) (?:(?:eine?|une?|una?|uno|een|seit \d{4}|depuis \d{4}|desde \d{4}|dal \d{4}|sinds \d{4}) )?(?:[\p{L}-]+ ){0,3}(?:redakteur(?:in)?|reporter(?:in)?|korrespondent(?:in)?|journalist(?:in|e|a)?|autor(?:in)?|rédact(?:eur|rice)|correspondant(?:e)?|periodista|redact(?:or|ora)|corresponsal|giornalista|redatt(?:ore|rice)|corrispondente|verslaggever|redacteur|correspondent|jornalista|repórter)\b/iu;

/**
 * The site's copyright notice as pages close their content: "Copyright 2019 Hawaii News Now. All
 * rights reserved.", "© 2024 River Society", "CopyRight@2004-2008", "무단전재 및 재배포 금지". A photo
 * credit ("© Reuters", "photos © Jane Doe, 2018") names no year right after the sign and stays.
 */
const COPYRIGHT_NOTICE =
  /^copyright\b|(?:copyright|\(c\)|[©ⓒ])\s*(?:[©ⓒ@]\s*)?(?:\d{4}|by\b)|all rights reserved|tous droits réservés|alle rechte vorbehalten|(?:todos )?los derechos reservados|tutti i diritti riservati|todos os direitos reservados|版权所有|版權所有|無断(?:転載|複製)|무단\s*전재/iu;

/** How many blocks at the end of the content are tested for closing notes. */
export const AUTHOR_NOTE_TAIL = 4;

/** A rendered block near the content's end that is a short author note or copyright notice. */
export function isClosingNote(block: string): boolean {
  if (block.length > MAX_LINE * 2 || block.includes('\n') || tooLong(block, MAX_LINE)) return false;
  const text = blockLineText(block);
  return text !== null && text.length <= MAX_LINE && block.charCodeAt(0) !== 0x23 && (AUTHOR_NOTE.test(text) || AUTHOR_NOTE_OTHER.test(text) || COPYRIGHT_NOTICE.test(text));
}

/**
 * A rendered list of teasers: three or more items, each of 60+ characters, every one cut off with
 * an ellipsis ("… the government will restore the connection as soon as it is..."), as a ticker
 * or a "latest news" box prints the first words of other stories. A list of quotations or steps
 * in which some items trail off reads otherwise.
 */
export function isExcerptList(block: string): boolean {
  if (!/^(?:[-+] |\d+\. )/.test(block)) return false;
  const items = block.split(/\n(?=(?:[-+] |\d+\. ))/);
  if (items.length < 3) return false;
  for (const item of items) if (item.length < 60 || !/(?:\.\.\.|…)(?:\]\([^)\s]*\))?\s*$/.test(item)) return false;
  return true;
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

/** Longest block (characters) read as a consent notice: the notices run to two or three sentences. */
const MAX_CONSENT = 600;
const COOKIE_WORD = /cookie|クッキー|쿠키/iu;
/** What a consent notice says it does with the cookies, or asks of the reader: use, store, accept, agree. */
const CONSENT_ACT =
  /we use|uses cookies|use of cookies|utilis|utiliz|usamos|usiamo|verwende|setzen .{0,20}ein|speicher|stockons|store|accès|access|accéd|acced|accept|agree|consent|zustimm|einverst|einwillig|akzeptier|acept|gebruik|używa|akceptuj|använder|godkänn|использу|kullan|同意|利用して|利用しています|使用/iu;
/** Where and why: the site, the reader's device or browser, their data, analytics or advertising. */
const CONSENT_CONTEXT =
  /website|webseite|web ?site|site web|sitio web|this site|ce site|notre site|diese seite|este sitio|esta web|nuestra web|questo sito|similar technologies|technologies similaires|tecnologías similares|ähnliche technologien|informaci[óo]n personal|informations personnelles|persönliche|browser|browsing|device|appareil|gerät|navegador|navigateur|navigation|navegación|personal data|données|daten|datos|dati|privacy|datenschutz|confidentialité|privacidad|analy[sz]|statisti|advertis|werbung|anzeigen|publicité|publicidad|pubblicità|traffic|zugriffe|tráfico|trafic|webbplats|strona|serwis|сайт|サイト|プライバシー|広告|网站|本站|隐私|广告|浏览/iu;

/**
 * A cookie or consent notice, by what it says: a block of at most MAX_CONSENT characters that
 * names cookies, what is done with them (used, stored, accepted) and where or why (the site,
 * the device, personal data, analytics, advertising), in the languages the patterns name. Read on
 * consent managers whose markup names no cookie (`qc-cmp2-container`, `sp_message_container`,
 * `didomi-host`). A recipe's "store the cookies in a tin for a week" names no site, device or data.
 */
export function isConsentNotice(text: string): boolean {
  return text.length <= MAX_CONSENT && COOKIE_WORD.test(text) && CONSENT_ACT.test(text) && CONSENT_CONTEXT.test(text);
}

