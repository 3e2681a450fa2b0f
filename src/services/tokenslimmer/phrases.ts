/**
 * The documented tables of API-09 (docs/api-09/verbose-phrases.md lists the verbose phrases).
 * Everything here is data; `rules.ts` and `telegraph.ts` compile it once at boot. Every
 * replacement is strictly shorter than what it replaces, so a compression pass either shrinks the text or leaves it alone (that is what makes
 * the fixed-point loop of `core.ts` terminate, and the output idempotent).
 *
 * Words that only these tables remove are the ones `retention.ts` exempts from the
 * "every content word survives" check of `safe` and `balanced`.
 */

/** Verbose phrase → short equivalent (balanced and aggressive). Matched case-insensitively on word boundaries. */
export const VERBOSE_PHRASES: readonly (readonly [string, string])[] = [
  ['due to the fact that', 'because'],
  ['owing to the fact that', 'because'],
  ['in light of the fact that', 'because'],
  ['on account of the fact that', 'because'],
  ['for the reason that', 'because'],
  ['in spite of the fact that', 'although'],
  ['despite the fact that', 'although'],
  ['regardless of the fact that', 'although'],
  ['in order to', 'to'],
  ['so as to', 'to'],
  ['in an effort to', 'to'],
  ['for the purpose of', 'for'],
  ['with the purpose of', 'for'],
  ['at this point in time', 'now'],
  ['at the present time', 'now'],
  ['at the present moment', 'now'],
  ['in this day and age', 'today'],
  ['in the near future', 'soon'],
  ['in the event that', 'if'],
  ['in the event of', 'if'],
  ['on the condition that', 'if'],
  ['until such time as', 'until'],
  ['prior to', 'before'],
  ['subsequent to', 'after'],
  ['in close proximity to', 'near'],
  ['in the vicinity of', 'near'],
  ['a large number of', 'many'],
  ['a great number of', 'many'],
  ['a significant number of', 'many'],
  ['a small number of', 'few'],
  ['the vast majority of', 'most'],
  ['the majority of', 'most'],
  ['is able to', 'can'],
  ['are able to', 'can'],
  ['has the ability to', 'can'],
  ['have the ability to', 'can'],
  ['has the capacity to', 'can'],
  ['have the capacity to', 'can'],
  ['on a daily basis', 'daily'],
  ['on a weekly basis', 'weekly'],
  ['on a monthly basis', 'monthly'],
  ['on a yearly basis', 'yearly'],
  ['on a regular basis', 'regularly'],
  ['at all times', 'always'],
  ['each and every', 'every'],
  ['first and foremost', 'first'],
  ['with regard to', 'regarding'],
  ['in regard to', 'regarding'],
  ['with reference to', 'regarding'],
  ['as a result of', 'because of'],
  ['by means of', 'by'],
  ['by virtue of', 'by'],
  ['with the exception of', 'except'],
  ['in excess of', 'over'],
  ['along the lines of', 'like'],
  ['in a timely manner', 'promptly'],
  ['as a matter of fact', 'in fact'],
  ['make a decision', 'decide'],
  ['made a decision', 'decided'],
  ['come to a conclusion', 'conclude'],
  ['take into consideration', 'consider'],
  ['take into account', 'consider'],
  ['give consideration to', 'consider'],
  ['make use of', 'use'],
  ['makes use of', 'uses'],
  ['in addition to', 'besides'],
  ['a sufficient amount of', 'enough'],
  ['an adequate amount of', 'enough'],
  ['is indicative of', 'indicates'],
  ['are indicative of', 'indicate'],
  ['it is possible that', 'maybe'],
  ['in spite of', 'despite'],
  ['with respect to', 'regarding'],
  ['in the course of', 'during'],
  ['during the course of', 'during'],
  ['for the most part', 'mostly'],
  ['in the form of', 'as'],
  ['a wide variety of', 'various'],
  ['a variety of', 'various'],
  ['on the basis of', 'based on'],
  ['in order for', 'for'],
  ['has a tendency to', 'tends to'],
  ['have a tendency to', 'tend to'],
  ['is in need of', 'needs'],
  ['are in need of', 'need'],
  ['the question of whether', 'whether'],
  ['the question as to whether', 'whether'],
  ['it is clear that', 'clearly'],
  ['a majority of', 'most'],
  ['in a manner similar to', 'like'],
];

/**
 * Politeness formulas, meta-phrases and hedges removed outright (balanced and aggressive). Each is a
 * regular-expression source matched case-insensitively; a trailing comma or space goes with it.
 * None of them contains a negation.
 */
export const FILLER_PATTERNS: readonly string[] = [
  // Sentences that are only politeness or sign-off.
  String.raw`(?:thank you|thanks)(?: (?:so|very) much)?(?: in advance)?(?: for your (?:help|time|assistance))?[.!]`,
  String.raw`i hope (?:this|that|it) (?:helps|makes sense|is (?:correct|right|clear|helpful|useful)|email finds you well|message finds you well)[.!]`,
  String.raw`(?:please )?(?:let me know|feel free to (?:ask|reach out)) if you have any (?:other |further |more )?questions[.!]`,
  String.raw`(?:any help|your help) (?:is|would be) (?:greatly |much |really )?appreciated[.!]`,
  // Self-descriptions of the model that carry no instruction.
  String.raw`as an ai(?: language model| assistant| model)?,[ \t]*`,
  String.raw`as a (?:large )?language model,[ \t]*`,
  // Request wrappers before the actual instruction. Not a question that asks something else:
  // "Would you mind if I bring my dog?", "Would it be possible to see Mars with the naked eye?".
  // "basically" and "essentially" only as sentence adverbs with their comma: "basically done" and
  // "essentially equivalent" say less than "done" and "equivalent".
  String.raw`i (?:would|'d) (?:really )?(?:like|love) (?:for )?you to[ \t]+`,
  String.raw`i want you to[ \t]+`,
  String.raw`i need you to[ \t]+`,
  String.raw`(?:can|could|would|will) you (?:please |kindly )?(?=(?:tell|give|write|explain|summari[sz]e|list|describe|provide|help|show|translate|generate|create|answer|check|find|make|rewrite|review|suggest)\b)`,
  String.raw`would you be so kind as to[ \t]+`,
  String.raw`please be so kind as to[ \t]+`,
  String.raw`(?:please )?(?:kindly )?make sure (?:that )?you[ \t]+`,
  String.raw`it (?:is|would be) (?:great|nice|helpful) if you could[ \t]+`,
  String.raw`i (?:was|am) wondering if you (?:could|can|would)[ \t]+`,
  String.raw`i wonder if you (?:could|can|would)[ \t]+`,
  String.raw`i would (?:really |greatly )?appreciate it if you (?:could|would)[ \t]+`,
  String.raw`would it be possible for you to[ \t]+`,
  String.raw`do you think you could[ \t]+`,
  // "Nonstop only please, I've had enough": the comma ends the clause and stays.
  String.raw`[ \t]+please(?=,[ \t])`,
  String.raw`please,?[ \t]+`,
  String.raw`,\s*please(?=[.?!])`,
  String.raw`kindly[ \t]+`,
  // Hedges and empty intensifiers.
  String.raw`it (?:should be|is worth|must be) not(?:ed|ing) that[ \t]+`,
  String.raw`it is important to note that[ \t]+`,
  String.raw`(?:it goes without saying|needless to say) that[ \t]+`,
  String.raw`needless to say,[ \t]*`,
  String.raw`to be (?:honest|frank),[ \t]*`,
  String.raw`(?:quite )?frankly,[ \t]*`,
  String.raw`basically[ \t]*,[ \t]*`,
  String.raw`essentially[ \t]*,[ \t]*`,
  // Not as a manner adverb closing its phrase ("interpret each question literally and as …").
  String.raw`literally[ \t]+(?!(?:means?|meant|translates?|translated|and|or|but|as|than|rather|instead|if|when|unless)\b)`,
];

/** Disfluencies of spoken transcripts (balanced and aggressive). Lower-case or capitalised, never ALL CAPS. */
export const DISFLUENCY_WORDS: readonly string[] = ['um', 'umm', 'uh', 'uhh', 'uhm', 'erm', 'er', 'hmm', 'hm', 'mm', 'mmm', 'mhm'];

/** Fillers of speech that count only when set off by punctuation: ", you know ," / "I mean ,". */
export const SPOKEN_FILLERS: readonly string[] = ['you know', 'i mean', 'you see', 'like i said'];

/**
 * Non-speech annotations of transcripts (AMI/ICSI/QMSum `{vocalsound}`, subtitle `[laughter]`,
 * `(crosstalk)` …). Removed in balanced and aggressive, in braces, brackets or parentheses.
 */
export const NON_SPEECH_TAGS: readonly string[] = [
  // Not "inaudible" or "unintelligible": they mark words the record is missing, which a reader must know.
  'vocalsound', 'nonvocalsound', 'disfmarker', 'gap', 'pause', 'laughter', 'laughs', 'laugh', 'laughing', 'applause',
  'music', 'noise', 'background noise', 'crosstalk', 'cough', 'coughs', 'coughing',
  'silence', 'sigh', 'sighs', 'breath', 'breathing', 'clears throat', 'static',
];

/**
 * Low-information words pruned in `aggressive` only, in prose (never in code, quotes, numbers,
 * identifiers or table rows), only inside a sentence (a question's opening "Is"/"Are" stays) and
 * only when a lower-case word follows: finite forms of "to be" and empty intensifiers.
 */
export const PRUNE_WORDS: readonly string[] = [
  // "be" / "been" / "being" stay: after "to" or a modal, or in a passive perfect, they carry the verb.
  'is', 'are', 'was', 'were', 'am',
  // Not "very" or "extremely": a degree is a fact ("very cold butter", "very ripe pears").
  'really', 'just', 'quite', 'rather', 'simply', 'actually', 'certainly', 'definitely', 'totally',
];

/**
 * Articles pruned in `aggressive` only where they open a sentence and a lower-case word follows.
 * Inside a sentence an article may belong to a name or an answer ("the Hudson Bay", "directly into
 * the bloodstream"), so it stays.
 */
export const ARTICLES: readonly string[] = ['the', 'an', 'a'];

/**
 * Prepositions: an article right after one stays in `aggressive` ("directly into the bloodstream",
 * "in a framework of a republic"): a prepositional object is where places, times and answer spans sit.
 */
export const PREPOSITION_WORDS: readonly string[] = [
  'of', 'in', 'on', 'at', 'to', 'for', 'with', 'by', 'from', 'into', 'onto', 'upon', 'about', 'over', 'under', 'between',
  'among', 'through', 'during', 'within', 'without', 'across', 'behind', 'beyond', 'near', 'toward', 'towards', 'against',
  'along', 'around', 'like', 'than', 'as', 'per', 'via', 'until', 'since', 'after', 'before', 'above', 'below', 'inside',
  'outside', 'throughout', 'beside', 'besides', 'despite', 'except', 'off', 'out', 'up', 'down',
];

/**
 * Words after which an article is not pruned: they show that "a" is a variable or a letter ("a is
 * even", "a and b") or that the article is part of a quantity ("a few" ≠ "few", "the most" ≠ "most").
 */
export const ARTICLE_FIXED_NEXT: readonly string[] = [
  'is', 'are', 'was', 'were', 'be', 'and', 'or', 'to', 'of', 'in', 'the', 'a', 'an', 'not', 'no', 'nor', 'equals',
  'few', 'little', 'lot', 'bit', 'most', 'least', 'more', 'less', 'same',
  // A quantity word: "two and a half hours", "a third of them", "a hundred", "a couple of".
  'half', 'third', 'quarter', 'fifth', 'tenth', 'hundred', 'thousand', 'million', 'billion', 'trillion', 'dozen', 'couple',
  'pair', 'single',
  // A pronoun "one" and the pair words: "that's the one" is not "that's one", "the other" not "other".
  'one', 'ones', 'other', 'others', 'former', 'latter',
];

/**
 * Units of a rate: "a"/"an" before one stays in aggressive, where it means "per" ("$12 an hour",
 * "6 hours a day", "twice a week", "$3 a pound").
 */
export const RATE_UNITS: readonly string[] = [
  'second', 'minute', 'hour', 'day', 'night', 'week', 'month', 'quarter', 'year', 'decade', 'century',
  'piece', 'pound', 'ounce', 'kilo', 'kilogram', 'gram', 'liter', 'litre', 'gallon', 'mile', 'kilometer', 'kilometre',
  'meter', 'metre', 'foot', 'yard', 'dozen',
];

/** Verbs after which "that" is only a complementizer ("we are told that X" → "we told X"): aggressive drops it. */
export const COMPLEMENTIZER_VERBS: readonly string[] = [
  'said', 'says', 'say', 'told', 'think', 'thinks', 'thought', 'assume', 'assumes', 'assumed', 'believe', 'believes',
  'believed', 'suggest', 'suggests', 'suggested', 'claim', 'claims', 'claimed', 'realize', 'realise', 'realized',
  'realised', 'conclude', 'concluded', 'concludes', 'argue', 'argues', 'argued', 'notice', 'noticed', 'hope', 'hoped',
];

/**
 * Quantities before which an existential "there is/are/was/were" goes in `aggressive` ("so there
 * are 42 - 30 = 12 muffins left" → "so 42 - 30 = 12 muffins left", "There is no item left" → "No
 * item left"): number words and quantity words (a number, written in digits, is a placeholder and
 * counts too). The quantity itself stays. Not before an article ("There is a cat" stays: a bare
 * noun phrase would be left).
 */
export const EXISTENTIAL_QUANTITY_WORDS: readonly string[] = [
  'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen',
  'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy',
  'eighty', 'ninety', 'hundred', 'hundreds', 'thousand', 'thousands', 'million', 'millions', 'dozens',
  'no', 'none', 'nothing', 'nobody', 'many', 'several', 'more', 'fewer', 'exactly', 'only', 'at least', 'at most',
];

/**
 * Adverbs allowed between the existential "there is/are" and its quantity ("there were originally
 * 32 + 42 = 74 chocolates" → "originally 32 + 42 = 74 chocolates"); they stay.
 */
export const EXISTENTIAL_ADVERBS: readonly string[] = ['originally', 'initially', 'still', 'now', 'already', 'also', 'altogether', 'then'];

/**
 * Words after which "there is/are" is existential (besides a clause start): conjunctions,
 * subordinators and verbs that take a clause ("so there are", "That means there were"). After a
 * noun "there" may be a place ("the book there is 5 years old"): it stays.
 */
export const EXISTENTIAL_AFTER: readonly string[] = [
  'so', 'and', 'but', 'or', 'then', 'if', 'since', 'because', 'as', 'when', 'whenever', 'while', 'now', 'although', 'though',
  'thus', 'hence', 'therefore', 'once', 'until', 'unless', 'that', 'means', 'meant', 'mean', 'know', 'knew', 'knows', 'shows',
  'showed', 'altogether', 'overall', 'today', 'originally', 'initially', 'finally', 'also',
];

/**
 * Irregular past participles that are also the simple past: after "has"/"have" in `aggressive`
 * the auxiliary goes ("He has sold 30 of them" → "He sold 30 of them"). Participles that differ
 * from the past ("eaten", "given") keep it; so do forms that equal the present ("put", "cut", "read").
 */
export const PERFECT_PARTICIPLES: readonly string[] = [
  'made', 'sold', 'bought', 'paid', 'spent', 'found', 'kept', 'left', 'lost', 'won', 'built', 'sent', 'brought', 'caught',
  'taught', 'thought', 'told', 'said', 'held', 'heard', 'met', 'felt', 'fed', 'led', 'fled', 'meant', 'slept', 'sat',
  'stood', 'understood', 'lent', 'dug', 'stuck', 'struck', 'hung', 'shot', 'laid', 'sought', 'fought', 'bent', 'dealt',
  'swept', 'wept', 'spun', 'slid', 'lit',
];

/**
 * Words in "-ed" that are no participle (nouns: "has red on it", "has need of"; words in "-eed" are
 * all left out by the rule): after "has"/"have" they keep the verb.
 */
export const ED_NON_PARTICIPLES: readonly string[] = [
  'red', 'bed', 'shed', 'sled', 'hundred', 'kindred', 'sacred', 'naked', 'wicked', 'rugged', 'ragged', 'crooked', 'beloved',
  'learned', 'aged', 'blessed', 'jagged', 'wretched', 'dogged', 'seabed', 'hotbed', 'flowerbed', 'riverbed', 'sickbed',
  'deathbed', 'waterbed', 'sunbed', 'roadbed', 'hatred', 'shred', 'infrared',
];

/**
 * What may follow the participle for "has/have + participle" to be a perfect: a determiner, an
 * object pronoun, a preposition or particle, "that", "no"/"not" (or a number, or the sentence end).
 * Before a bare noun the participle may be an adjective of a possession ("He has colored pencils",
 * "She has baked cookies"): the verb stays there.
 */
export const PERFECT_NEXT: readonly string[] = [
  'the', 'a', 'an', 'this', 'that', 'these', 'those', 'my', 'your', 'his', 'her', 'its', 'our', 'their', 'him', 'them',
  'it', 'me', 'us', 'you', 'some', 'any', 'all', 'each', 'every', 'both', 'no', 'not', 'to', 'in', 'on', 'at', 'by',
  'with', 'from', 'up', 'out', 'off', 'down', 'away', 'into', 'about', 'of', 'over', 'through', 'back',
];

/**
 * Adverbs allowed between "has/have" and the participle ("She has already saved $85" → "She already
 * saved $85"). Not "always", "ever", "never", "recently": with them the perfect says "up to now".
 */
export const PERFECT_ADVERBS: readonly string[] = ['already', 'also', 'now', 'finally'];

/**
 * "have" drops only after its subject: one of these pronouns, or a plural noun (a word in "-s"
 * that is not one of PERFECT_NOT_PLURAL). After a modal, "to", "do" or an adverb it stays ("would
 * have paid", "to have finished", "may well have expanded", "might all have seen").
 */
export const PERFECT_HAVE_AFTER: readonly string[] = ['i', 'we', 'you', 'they', 'who', 'which', 'that'];

/** Words in "-s" that are no plural subject before "have" (adverbs, pronouns, verbs; words in "-ss", "-us", "-is" never are). */
export const PERFECT_NOT_PLURAL: readonly string[] = [
  'always', 'perhaps', 'sometimes', 'nevertheless', 'nonetheless', 'besides', 'afterwards', 'regardless', 'towards', 'whereas',
  'was', 'has', 'does', 'its', 'yes', 'as', 'ours', 'yours', 'theirs', 'hers',
]

/**
 * Acknowledgements that carry no content on their own. In `aggressive`, a labelled turn made only
 * of these ("Marketing: Yeah , okay .") is dropped. "Yes", "no" and "sure" are not among them: they may answer a question.
 */
export const BACKCHANNEL_WORDS: readonly string[] = [
  'yeah', 'yep', 'yup', 'okay', 'ok', 'right', 'alright', 'mm-hmm', 'uh-huh', 'mhm', 'oh', 'ah', 'hmm', 'mm', 'um', 'uh', 'cool',
  // a turn or sentence trailing off after a conjunction ("Professor: so", "But .") says nothing either
  'so', 'but', 'and', 'or', 'well', 'anyway',
];

/**
 * Discourse markers of speech. In `aggressive`, one that opens a clause and is followed by a comma
 * ("Okay , so , we start", "Well , I think") is dropped; "no", "yes" and "right" are not among them
 * (they may answer).
 */
export const DISCOURSE_MARKERS: readonly string[] = ['okay', 'ok', 'well', 'oh', 'alright', 'so', 'yeah', 'yep', 'anyway'];

/** Words that make a sentence negative: never removed, counted by the retention check. */
export const NEGATION_WORDS: readonly string[] = ['not', 'no', 'never', 'without', 'nor', 'none', 'nobody', 'nothing', 'neither', 'nowhere', 'cannot'];

/**
 * Sentence openers that mark an instruction: a sentence of at least five words that starts like
 * this and repeats an earlier one word for word is the "instruction said twice" that balanced drops.
 */
export const INSTRUCTION_OPENERS: readonly string[] = [
  'please', 'you must', 'you should', 'you need to', 'you have to', 'you will', 'make sure', 'ensure', 'be sure',
  'always', 'never', 'do not', "don't", 'remember', 'note', 'important', 'use', 'avoid', 'keep', 'answer', 'respond',
  'reply', 'write', 'return', 'output', 'provide', 'include', 'only', 'format', 'focus', 'follow', 'think', 'explain',
  'summarize', 'summarise', 'list', 'give',
];
