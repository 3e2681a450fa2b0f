/** Legal and confidentiality disclaimers of pasted e-mails: the cues that make a paragraph one (boilerplate.ts drops it). */
import { holdsValue } from './pasted-lines.ts';

/** Cues of a legal / confidentiality disclaimer; a paragraph needs two distinct ones. */
const DISCLAIMER_CUE_RE =
  /\b(?:confidentiality notice|disclaimer:|privileged and confidential|intended (?:only|solely) for|intended recipients?|addressee(?:s)? only|(?:have )?received this (?:e-?mail|message|communication|transmission) in error|notify the sender|strictly prohibited|(?:any|the) (?:review|dissemination|distribution|disclosure|copying|retransmission)|may contain (?:confidential|privileged|proprietary)|legally privileged|delete (?:it|this (?:e-?mail|message)|the (?:e-?mail|message|original))\b|free of (?:any )?(?:viruses|virus)|accepts? (?:no|any) (?:liability|responsibility)|views or opinions (?:expressed|presented)|may be (?:unlawful|illegal)|received (?:it|this (?:e-?mail|message)) by mistake|(?:this|the) (?:e-?mail|message|communication)(?: and any attachments?)? (?:is|are|may be) confidential)/gi;
const DISCLAIMER_OPENER_RE = /^(?:confidentiality notice|confidentiality|disclaimer|legal disclaimer|important notice|privileged (?:and|&) confidential|notice of confidentiality)[ \t]*[:\-–—]/i;
export const DISCLAIMER_MAX_LINES = 25;
export const DISCLAIMER_MAX_CHARS = 3000;
/**
 * The same disclaimer in German, French, Spanish, Italian, Portuguese and Dutch, by what it speaks
 * of: each alternative is one cue (its group's index names it); a paragraph needs three distinct
 * ones, one of them an error or a prohibition.
 */
const OTHER_CUE_RE = new RegExp(
  [
    'vertraulich|confidentiel|confidencial|confidenziale|riservat[oaie]|sigilos[oa]|vertrouwelijk', // confidential
    'irrtümlich|versehentlich|fälschlicherweise|par erreur|por error|per errore|por engano|por erro|per vergissing|abusievelijk', // in error (strong)
    'untersagt|nicht gestattet|unzulässig|strengstens|interdite?s?|prohibid[oa]s?|vietat[oa]|proibid[oa]|verboden', // prohibited (strong)
    'adressat|empfänger|destinataires?|destinatari[oa]s?|destinatários?|geadresseerde', // recipient
    'absender|expéditeur|remitente|mittente|remetente|afzender', // sender
    'vernichten|löschen|supprimer|détruire|eliminar|destruir|cancellare|eliminare|apagar|verwijderen', // delete
  ]
    .map((alt) => `(${alt})`)
    .join('|'),
  'giu',
);
/** Groups 2 and 3 (in error, prohibited) are the strong cues. */
const OTHER_STRONG_GROUPS = 3;

/** The words of the strong cues: a text without any of them holds no disclaimer. */
export const DISCLAIMER_GATE_RE = /confidential|intended|prohibited|disclaimer|privileged|in error|liabilit|sender|addressee|vertraulich|confiden|riservat|sigilos|vertrouwelijk|irrtümlich|versehentlich|fälschlicherweise|erreur|por error|per errore|por engano|por erro|vergissing|abusievelijk|untersagt|gestattet|unzulässig|interdit|prohibid|vietat|proibid|verboden/i;
/** The second word of the one cue that can span a line break ("in error"). */
export const ERROR_WORD_RE = /error/i;

/** Sentence ends: ". ", "! ", "? " before a capital, a digit-free opener or a quote. */
const SENTENCE_END_RE = /(?<=[.!?])[ \t]+(?=[A-Z"'‘“(])/;

/** The sentences of a disclaimer paragraph that hold a value or state a term (termSentences), joined by one space. */
export function valueSentences(para: string): string {
  return para
    .split(SENTENCE_END_RE)
    .filter((x) => holdsValue(x) || statesTerm(x.trim()))
    .join(' ');
}

/**
 * A notice's own words: its cues, the words of the strong cues, and what notices add besides
 * (viruses, printing, monitoring, the sender's views, where the company is registered). A sentence of a disclaimer paragraph with
 * none of them is no part of the notice but a term the sender states under it ("Quoted lead times
 * are estimates and are not guaranteed."): it stays in every level.
 */
const NOTICE_WORD_RE = /virus|environment|print(?:ing)?\b|monitor|recorded|opinions?\b|views?\b|author|attachments?|e-?mail|message|communication|transmission|recipient|unauthori[sz]ed|thank you|legal|law\b|registered (?:in|at|office|no\b|number|address)/i;
/** A stated term has this many words at least: "Thank you." or a lone "Regards." is none. */
const TERM_MIN_WORDS = 5;

/** True when a (trimmed) sentence of a disclaimer paragraph states a term rather than the notice (NOTICE_WORD_RE). */
function statesTerm(t: string): boolean {
  if (t.split(/\s+/).length < TERM_MIN_WORDS || DISCLAIMER_GATE_RE.test(t) || NOTICE_WORD_RE.test(t)) return false;
  DISCLAIMER_CUE_RE.lastIndex = 0;
  return !DISCLAIMER_CUE_RE.test(t);
}

/** The sentences of a disclaimer paragraph that state a term (statesTerm), joined by one space. */
export function termSentences(para: string): string {
  return para
    .split(SENTENCE_END_RE)
    .map((x) => x.trim())
    .filter(statesTerm)
    .join(' ');
}

/** Two distinct cues, one of them strong (holding a word of DISCLAIMER_GATE_RE, or the opener). */
export function isDisclaimer(para: string): boolean {
  const cues = new Set<string>();
  let strong = DISCLAIMER_OPENER_RE.test(para);
  if (strong) cues.add('opener');
  DISCLAIMER_CUE_RE.lastIndex = 0;
  for (const m of para.matchAll(DISCLAIMER_CUE_RE)) {
    cues.add(m[0].toLowerCase().split(/[ \t]/)[0]!);
    strong ||= DISCLAIMER_GATE_RE.test(m[0]);
    if (cues.size >= 2 && strong) return true;
  }
  // Single words are weaker cues than the English phrases: three distinct ones, one of them an
  // error or a prohibition ("Bitte löschen Sie die vertrauliche Datei, sobald der Absender …" is an instruction).
  const other = new Set<number>();
  let otherStrong = false;
  for (const m of para.matchAll(OTHER_CUE_RE)) {
    const group = m.findIndex((g, k) => k > 0 && g !== undefined);
    other.add(group);
    otherStrong ||= group >= 2 && group <= OTHER_STRONG_GROUPS;
    if (other.size >= 3 && otherStrong) return true;
  }
  return false;
}
