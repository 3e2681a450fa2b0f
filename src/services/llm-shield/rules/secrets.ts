/**
 * Secrets (SECRET_LEAK): provider keys with a recognisable prefix (AWS, GitHub, GitLab, Slack,
 * Stripe, Google, OpenAI, Anthropic, Hugging Face, npm, SendGrid, Twilio, Azure storage), JWTs,
 * PEM private keys, passwords in connection strings and `password=`/`api_key:` assignments.
 * Only the secret part is reported and redacted (the user name of a connection string stays).
 */
import RE2 from 're2';

export interface SecretHit {
  readonly entity: 'API_KEY' | 'PRIVATE_KEY' | 'JWT' | 'PASSWORD';
  readonly rule: string;
  readonly confidence: number;
  /** light-view offsets of the secret value */
  readonly start: number;
  readonly end: number;
}

interface SecretPattern {
  readonly re: RE2;
  readonly entity: SecretHit['entity'];
  readonly rule: string;
  readonly confidence: number;
  /** capture group holding the secret (0 = whole match) */
  readonly group: number;
  /** lower-case literals one of which every match contains: RE2 runs only when one is present */
  readonly needles: readonly string[];
}

export type SecretPatterns = readonly SecretPattern[];

export function createSecretPatterns(): SecretPatterns {
  const p = (needles: readonly string[], source: string, entity: SecretHit['entity'], rule: string, confidence: number, group = 0): SecretPattern => ({ re: new RE2(source, 'gd'), entity, rule, confidence, group, needles });
  return [
    p(['akia', 'asia', 'abia', 'acca'], String.raw`\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b`, 'API_KEY', 'secret.aws_access_key', 0.95),
    p(['secret'], String.raw`(?i)aws_?secret_?access_?key["']?\s*[:=]\s*["']?([A-Za-z0-9/+=]{40})`, 'API_KEY', 'secret.aws_secret_key', 0.95, 1),
    p(['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'], String.raw`\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})`, 'API_KEY', 'secret.github_token', 0.95),
    p(['glpat-'], String.raw`\bglpat-[A-Za-z0-9_-]{20,64}`, 'API_KEY', 'secret.gitlab_token', 0.95),
    p(['xox'], String.raw`\bxox[abposr]-[A-Za-z0-9-]{10,200}`, 'API_KEY', 'secret.slack_token', 0.95),
    p(['k_live_', 'k_test_'], String.raw`\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,200}`, 'API_KEY', 'secret.stripe_key', 0.95),
    p(['aiza'], String.raw`\bAIza[0-9A-Za-z_-]{35}`, 'API_KEY', 'secret.google_api_key', 0.9),
    p(['sk-'], String.raw`\bsk-(?:proj-|ant-(?:api\d{2}-)?|svcacct-)?[A-Za-z0-9_-]{20,300}`, 'API_KEY', 'secret.llm_api_key', 0.9),
    p(['hf_'], String.raw`\bhf_[A-Za-z0-9]{30,64}\b`, 'API_KEY', 'secret.huggingface_token', 0.9),
    p(['npm_'], String.raw`\bnpm_[A-Za-z0-9]{36}\b`, 'API_KEY', 'secret.npm_token', 0.95),
    p(['sg.'], String.raw`\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}`, 'API_KEY', 'secret.sendgrid_key', 0.95),
    p(['sk'], String.raw`\bSK[0-9a-f]{32}\b`, 'API_KEY', 'secret.twilio_key', 0.8),
    p(['accountkey='], String.raw`AccountKey=([A-Za-z0-9+/=]{40,200})`, 'API_KEY', 'secret.azure_storage_key', 0.95, 1),
    p(['eyj'], String.raw`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`, 'JWT', 'secret.jwt', 0.9),
    p(['-----begin'], String.raw`-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----`, 'PRIVATE_KEY', 'secret.private_key', 0.99),
    p(['://'], String.raw`\b[a-zA-Z][a-zA-Z0-9+.-]{1,20}://[^\s:/@]{1,128}:([^\s@/]{1,256})@[^\s@]`, 'PASSWORD', 'secret.connection_string_password', 0.9, 1),
    p(['pass', 'pwd', 'mot de passe', 'contrase'], String.raw`(?i)\b(?:password|passwd|pwd|passwort|mot de passe|contrase[nñ]a)\b["']?\s*[:=]\s*["']?([^\s"',;]{4,128})`, 'PASSWORD', 'secret.password_assignment', 0.8, 1),
    p(['api', 'secret', 'token', 'bearer'], String.raw`(?i)\b(?:api[_-]?key|api[_-]?secret|secret[_-]?key|client[_-]?secret|access[_-]?token|auth[_-]?token|bearer)\b["']?\s*[:=]?\s*["']?([A-Za-z0-9_\-/+=.]{16,512})`, 'API_KEY', 'secret.key_assignment', 0.8, 1),
  ];
}

/** Every secret in `text` (light view). Overlapping hits are resolved by the caller. */
export function findSecrets(text: string, has: (needle: string) => boolean, patterns: SecretPatterns): SecretHit[] {
  const out: SecretHit[] = [];
  // Position of the next "-----END" at or after the last search; -1 once none is left. Keeps the
  // private-key scan linear when an input repeats BEGIN lines without END lines.
  let endMarker = -2;
  for (const p of patterns) {
    if (!p.needles.some(has)) continue;
    p.re.lastIndex = 0;
    for (let m = p.re.exec(text); m !== null; m = p.re.exec(text)) {
      const idx = (m as unknown as { indices?: [number, number][] }).indices;
      const range = idx?.[p.group];
      if (range === undefined) continue;
      let [start, end] = range;
      if (p.entity === 'PRIVATE_KEY') {
        // The key body runs to the matching END line; without one, to the end of the base64 block.
        if (endMarker !== -1 && endMarker < end) endMarker = text.indexOf('-----END', end);
        if (endMarker >= 0) {
          const close = text.indexOf('-----', endMarker + 8);
          end = close >= 0 ? close + 5 : text.length;
        } else end = text.length;
      }
      if (p.rule === 'secret.key_assignment' && !looksRandom(text.slice(start, end))) continue;
      out.push({ entity: p.entity, rule: p.rule, confidence: p.confidence, start, end });
      if (p.re.lastIndex < end) p.re.lastIndex = end;
    }
  }
  return out;
}

/** A generic `api_key: value` is a secret only when the value mixes letters and digits. */
function looksRandom(v: string): boolean {
  let letters = 0;
  let digits = 0;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c >= 48 && c <= 57) digits++;
    else if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) letters++;
  }
  return digits >= 2 && letters >= 4;
}
