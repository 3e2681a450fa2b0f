/**
 * Line rules of a pasted e-mail (boilerplate.ts): mobile signatures, mailing-list footers,
 * salutations, and notice lines (external-sender banners, footer link and social rows, print and
 * monitoring notices).
 */
import { FOOTER_LINKS, linkText, SOCIAL } from './page-labels.ts';
import { codeLines, LINE_RULE_MAX_CHARS, plainLine, QUOTE_PREFIX_RE } from './pasted-lines.ts';

const MOBILE_RE =
  /^(?:sent from my (?:[a-z]+ )?(?:iphone|ipad|ipod|android(?: (?:phone|device|tablet))?|blackberry|mobile(?: (?:device|phone))?|phone|smartphone|tablet|windows phone|galaxy(?: [a-z0-9+ ]{1,20})?|pixel(?: [a-z0-9 ]{1,12})?)|sent from (?:outlook|mail|yahoo mail|gmail|aol|proton ?mail) for (?:ios|android|iphone|ipad|windows(?: \d{1,2})?|mac)|get outlook for (?:ios|android)|sent from (?:outlook|yahoo mail|mail) on (?:ios|android)|sent with (?:proton ?mail|blackberry)[a-z ]{0,30})[.!]?$/i;
/** A device or mail app as the other languages' mobile signatures name it ("iPhone", "Samsung Galaxy Smartphone", "Outlook für iOS"). */
const DEVICE = String.raw`(?:iphone|ipad|android(?:[- ](?:telefon|smartphone|handy|phone|gerät))?|samsung(?: galaxy)?(?: smartphone)?|galaxy|huawei|xiaomi|blackberry|smartphone|handy|mobiltelefon|mobilgerät|tablet|téléphone(?: mobile)?|appareil mobile|mobile|teléfono(?: móvil)?|móvil|celular|telemóvel|telefone|telefono(?: cellulare)?|cellulare|telefoon|mobiel(?:e telefoon)?)`;
const MAIL_APP = String.raw`(?:outlook|yahoo mail|gmail|mail)[ \t]+(?:für|pour|para|per|voor)[ \t]+(?:ios|android|iphone|ipad)`;
/**
 * Mobile signatures in German, French, Spanish, Italian, Portuguese and Dutch ("Von meinem iPhone
 * gesendet", "Envoyé de mon iPhone", "Enviado desde mi iPhone", "Inviato da iPhone", "Enviado do
 * meu iPhone", "Verzonden vanaf mijn iPhone"), as those mail clients write them.
 */
const MOBILE_OTHER_RE = new RegExp(
  String.raw`^(?:(?:von|gesendet von|gesendet mit)[ \t]+(?:meinem[ \t]+)?(?:${DEVICE}|${MAIL_APP})(?:[ \t]+gesendet)?|envoy[ée](?:e)?[ \t]+(?:de|depuis|à partir de|avec)[ \t]+(?:mon[ \t]+)?(?:${DEVICE}|${MAIL_APP})|enviado[ \t]+(?:desde|de|do|com)[ \t]+(?:mi|meu|o)?[ \t]*(?:${DEVICE}|${MAIL_APP})|inviato[ \t]+(?:da|dal|con)[ \t]+(?:mio[ \t]+)?(?:${DEVICE}|${MAIL_APP})|(?:verzonden|verstuurd)[ \t]+(?:vanaf|van|met)[ \t]+(?:mijn[ \t]+)?(?:${DEVICE}|${MAIL_APP}))[.!]?$`,
  'i',
);

/** A mailing-list, newsletter or help-desk footer line ("##- Please type your reply above this line -##"): the cue opens the line. */
export const FOOTER_RE =
  /^(?:to unsubscribe\b|unsubscribe(?:$|[ \t]*[|:·•]|[ \t]+(?:here|now|from|instantly)\b)|click here to unsubscribe|if you (?:no longer wish|wish to stop|would like to stop|do not wish) to receive|you (?:are )?receiv(?:ed|ing) this (?:(?:e-?mail|message|newsletter|notification)s? )?because|reply to this e-?mail directly,? or view it on|this (?:e-?mail|message) was sent to\b|you are subscribed to\b|view (?:this (?:e-?mail|newsletter) )?in (?:your|a) (?:web )?browser|having trouble viewing this (?:e-?mail|message)|manage (?:your )?(?:e-?mail |subscription |notification )?(?:preferences|settings|subscriptions?)(?:$|[ \t]*[|:·•])|update your (?:e-?mail )?preferences|to stop receiving|#{0,3}-?[ \t]*(?:please )?(?:type|write|enter) your (?:reply|response) above this line)/i;
/**
 * Greetings and closings of a pasted e-mail alone on their line ("Hi,", "Kind regards,"): no fact in
 * them; the sender's name under a closing stays. A greeting with a name ("Dear Ann,", "Hallo
 * Anna,") stays. English, and the formulas a reader of German, French, Spanish, Italian,
 * Portuguese or Dutch mail would list.
 */
export const SALUTATION_LINES: ReadonlySet<string> = new Set([
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
  // German, French, Spanish, Italian, Portuguese and Dutch greetings and closings
  'hallo', 'hallo zusammen', 'hallo allerseits', 'guten tag', 'guten morgen', 'sehr geehrte damen und herren', 'liebe grüße',
  'viele grüße', 'beste grüße', 'herzliche grüße', 'freundliche grüße', 'mit freundlichen grüßen', 'mit besten grüßen',
  'vielen dank', 'danke', 'danke schön', 'bonjour', 'bonjour à tous', 'madame, monsieur', 'cordialement', 'bien cordialement',
  'bien à vous', 'salutations', 'meilleures salutations', 'merci', 'merci beaucoup', 'merci d’avance', "merci d'avance",
  'bonne journée', 'hola', 'hola a todos', 'buenos días', 'saludos', 'un saludo', 'saludos cordiales', 'atentamente',
  'muchas gracias', 'gracias', 'gracias de antemano', 'ciao', 'ciao a tutti', 'buongiorno', 'cordiali saluti', 'distinti saluti',
  'saluti', 'grazie', 'grazie mille', 'olá', 'bom dia', 'atenciosamente', 'cumprimentos', 'abraços', 'obrigado', 'obrigada',
  'hoi', 'hallo allemaal', 'beste groeten', 'met vriendelijke groet', 'met vriendelijke groeten', 'groeten', 'bedankt',
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
/** The same notice in German, French, Spanish, Italian, Portuguese, Dutch: it names printing and the environment, paper or need. */
const PRINT_OTHER_RE = /(?:drucken|ausdrucken|imprimer|impression|imprimir|impresión|stampare|stampa|afdrukken|printen)/i;
const PRINT_OTHER_CUE_RE = /(?:umwelt|papier|notwendig|environnement|nécessaire|medio ambiente|ambiente|necesario|necessario|necessário|milieu|nodig)/i;
const PRINT_CUE_RE = /\b(?:environment|necessary|needed|tree|trees|think|consider|paper|planet)\b/i;

/**
 * A mobile signature line ("Sent from my iPhone"). Its product name reads as an identifier to
 * patterns.ts, but the line is a closed phrase: balanced drops it unless it holds a digit
 * (retention.ts reads values without these lines).
 */
export function isMobileSignature(body: string): boolean {
  return MOBILE_RE.test(body) || (body.length <= MOBILE_OTHER_MAX_CHARS && MOBILE_OTHER_RE.test(body));
}

/** The longest mobile signature of another language read ("Von meinem Samsung Galaxy Smartphone gesendet" is 46). */
const MOBILE_OTHER_MAX_CHARS = 80;

/** The text without mobile signature lines that hold no digit (what balanced may drop with them). */
export function withoutMobileSignatures(text: string): string {
  if (!/sent|outlook|gesendet|envoy|enviado|inviato|verzonden|verstuurd/i.test(text)) return text;
  const lines = text.split('\n');
  const code = codeLines(lines);
  return lines
    .filter((l, i) => {
      if (code[i] === 1) return true;
      const q = QUOTE_PREFIX_RE.exec(l);
      const body = (q ? l.slice(q[0].length) : l).trim();
      return !(body.length <= 300 && isMobileSignature(body) && !/\d/.test(body));
    })
    .join('\n');
}

/** The key ends with a comma or an exclamation mark (a salutation's "Hi," / "Thanks!"). */
export const endsWithMark = (key: string): boolean => key.endsWith(',') || key.endsWith('!');

/** Lower-cased first characters FOOTER_RE can match at (t u c i y v h m r, and p w e # - of a help desk's line). */
export const FOOTER_FIRST: ReadonlySet<number> = new Set([...'tuciyvhmrpwe#-'].map((ch) => ch.charCodeAt(0)));

/**
 * A word every notice line holds, or one of the separators | · • (one scan of the line rules the
 * rest out). The separators are found with includes(): as a character class inside this
 * alternation they made the scan about three times slower.
 */
const NOTICE_GATE_RE = /outside|external|often|monitor|record|print|druck|imprim|impres|stamp|afdruk|facebook|twitter|linkedin|instagram|youtube|pinterest|tiktok|whatsapp|reddit|threads|mastodon|bluesky|snapchat|tumblr|vimeo|flickr|xing|telegram/i;
const mayBeNotice = (body: string): boolean => body.includes('|') || body.includes('·') || body.includes('•') || NOTICE_GATE_RE.test(body);

/** An external-sender banner, a footer link row, a social row or a print notice. */
export function isNoticeLine(body: string): boolean {
  if (body.length > LINE_RULE_MAX_CHARS || !mayBeNotice(body)) return false;
  let plain = plainLine(body);
  if ((BANNER_RE.test(plain) && BANNER_CUE_RE.test(plain)) || MONITOR_RE.test(plain)) return true;
  if (body.length <= 200 && PRINT_RE.test(plain) && PRINT_CUE_RE.test(plain)) return true;
  if (body.length <= 200 && PRINT_OTHER_RE.test(plain) && PRINT_OTHER_CUE_RE.test(plain) && !/\d/.test(plain)) return true;
  // A row of links ("[Instagram](https://…) · [YouTube](https://…)") is read by its labels.
  const labels = linkText(body);
  if (labels !== body) plain = plainLine(labels);
  if (plain.length > 160) return false;
  if (/[|·•]/.test(plain)) {
    const items = plain.split(/[ \t]*[|·•,][ \t]*/).map((x) => x.replace(/[*_]/g, '').trim().toLowerCase()).filter((x) => x !== '');
    if (items.length >= 2 && items.every((x) => FOOTER_LINKS.has(x) || SOCIAL.has(x))) return true;
  }
  const words = plain.replace(/[*_|·•,]/g, ' ').trim().toLowerCase().split(/[ \t]+/);
  return words.length >= 2 && words.every((w) => SOCIAL.has(w)) && words.some((w) => w !== 'email' && w !== 'x' && w !== 'rss');
}
