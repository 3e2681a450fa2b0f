/**
 * Delimiter and chat-template injection (DELIMITER_INJECTION): control tokens of the common chat
 * formats (ChatML `<|im_start|>`, Llama `[INST]`/`<<SYS>>`, Llama 3 header ids, Gemma turns,
 * `<|endoftext|>`), role headers written as Markdown or at a line start (`### System:`,
 * `assistant:`), fake tool/function messages (`"role": "tool"`, `<tool_call>`,
 * `<function_calls>`) and bracketed fake system notes (`[System note: ...]`). All RE2.
 */
import RE2 from 're2';

export interface DelimiterPattern {
  readonly re: RE2;
  /** lower-case literals one of which every match contains */
  readonly needles: readonly string[];
  readonly rule: string;
  readonly confidence: number;
}

export function createDelimiterPatterns(): readonly DelimiterPattern[] {
  const p = (needles: readonly string[], source: string, rule: string, confidence: number): DelimiterPattern => ({ re: new RE2(source, 'gi'), rule, confidence, needles });
  return [
    p(['<|'], String.raw`<\|(?:im_start|im_end|im_sep|endoftext|system|user|assistant|begin_of_text|end_of_text|start_header_id|end_header_id|eot_id|eom_id|fim_prefix|fim_suffix|fim_middle|tool_call|python_tag|end|start)\|>`, 'delimiter.chat_control_token', 0.95),
    p(['inst]', '<<sys', '<</sys'], String.raw`\[/?INST\]|<</?SYS>>|<s>\s*\[INST\]`, 'delimiter.llama_template', 0.92),
    p(['_of_turn>', '|>'], String.raw`<(?:start_of_turn|end_of_turn)>|<\|?(?:channel|message|constrain)\|>`, 'delimiter.turn_token', 0.9),
    // a header that is only a role ("### System:", "## Assistant", "### New instructions"), not
    // a section such as "## System requirements"
    p(['##', '===', '---', '**'], String.raw`(?m)^[ \t]*(?:#{2,6}|={3,}|-{3,}|\*{2,})[ \t]*(?:(?:system|assistant|developer|admin|root)(?:[ \t]+(?:prompt|message|instructions?|override))?|new (?:system )?instructions?|end (?:of )?(?:system|instructions?)|begin (?:new )?instructions?)[ \t]*(?:\*{2,}|#{2,}|={3,})?[ \t]*(?::[^\n]*|$)`, 'delimiter.markdown_role_header', 0.85),
    // "assistant: ..." at a line start is also how people paste transcripts: a weak signal alone
    p(['system', 'assistant', 'developer'], String.raw`(?m)^[ \t]*(?:system|assistant|developer)[ \t]*:[ \t]*\S`, 'delimiter.role_line', 0.45),
    p(['"role"'], String.raw`"role"\s*:\s*"(?:system|tool|function|developer)"`, 'delimiter.fake_role_message', 0.85),
    p(['<'], String.raw`</?(?:tool_call|tool_response|function_calls?|function_results?|invoke|antml:[a-z_]+|system|system_prompt|sys)>`, 'delimiter.fake_tool_tag', 0.85),
    p(['[system', '[admin', '[developer'], String.raw`\[(?:system|admin|developer)(?: note| message| override| instruction| request| command| notice)?\s*[:\]]`, 'delimiter.fake_system_note', 0.85),
    p(['%%%', '##', '==='], String.raw`(?m)^[ \t]*(?:%{3,}|#{2,}|={3,})[ \t]*(?:end|begin|start)\b[^\n]{0,60}(?:instructions?|prompt|system)`, 'delimiter.fake_section_marker', 0.85),
  ];
}

export interface DelimiterHit {
  readonly rule: string;
  readonly confidence: number;
  readonly start: number;
  readonly end: number;
}

/** Every delimiter hit of `text` (light view); one hit per rule and position. */
export function findDelimiters(text: string, has: (needle: string) => boolean, patterns: readonly DelimiterPattern[], maxPerRule = 64): DelimiterHit[] {
  const out: DelimiterHit[] = [];
  for (const p of patterns) {
    if (!p.needles.some(has)) continue;
    p.re.lastIndex = 0;
    let n = 0;
    for (let m = p.re.exec(text); m !== null && n < maxPerRule; m = p.re.exec(text), n++) {
      out.push({ rule: p.rule, confidence: p.confidence, start: m.index, end: m.index + m[0].length });
      if (m[0].length === 0) p.re.lastIndex++;
    }
  }
  return out;
}
