/** Lexical category bits of the token-window rule families (see tokens.ts). */
export const C = {
  OVR_VERB: 1 << 0,
  SCOPE: 1 << 1,
  TARGET: 1 << 2,
  EVERYTHING: 1 << 3,
  VOIDED: 1 << 4,
  NEW: 1 << 5,
  SELF: 1 << 6,
  EXTRACT_VERB: 1 << 7,
  SYS_TARGET: 1 << 8,
  PERSONA: 1 << 9,
  FICTION: 1 << 10,
  NOLIMIT: 1 << 11,
  POLICY: 1 << 12,
  NEG: 1 << 13,
  HARM: 1 << 14,
  PRODUCE: 1 << 15,
  PRETEXT: 1 << 16,
  COMPLY: 1 << 17,
  REFUSAL: 1 << 18,
  EXFIL_VERB: 1 << 19,
  SENSITIVE: 1 << 20,
  AI: 1 << 21,
  STRONG_SCOPE: 1 << 22,
  SWITCH: 1 << 23,
  NOT_FOLLOW: 1 << 24,
  QUESTION: 1 << 25,
  PRIMING: 1 << 26,
  /** dubious intent: controversial, convincing, justify, deceive, even though ... */
  HARM_WEAK: 1 << 27,
  MITIGATE: 1 << 28,
  WEAK_TARGET: 1 << 29,
  TASKED: 1 << 30,
} as const;

export type WordList = readonly (readonly [number, readonly string[]])[];

