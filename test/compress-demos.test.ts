/**
 * API-09 few-shot examples: which span of a prompt demoSpan reads as worked examples, and what
 * `balanced` removes there (articles) and leaves everywhere else.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compressText } from '../src/services/tokenslimmer/core.ts';
import { demoSpan } from '../src/services/tokenslimmer/demos.ts';
import { checkRetention } from '../src/services/tokenslimmer/retention.ts';

const QA = [
  'Answer the questions about the stories.',
  '',
  'Q: A farmer has a barn with 12 cows. How many legs do the cows have?',
  'A: Each cow has 4 legs, so the cows have 12 * 4 = 48 legs. The answer is 48.',
  '',
  'Q: The shop sells a pen for $3. How much do 5 pens cost?',
  'A: The price of a pen is $3, so 5 pens cost 5 * 3 = $15. The answer is 15.',
  '',
  'Q: A bus carries the same 40 people on each of 3 trips. How many rides is that?',
  'A:',
].join('\n');

const spanText = (t: string): string | null => {
  const s = demoSpan(t);
  return s === null ? null : t.slice(s[0], s[1]);
};

describe('demoSpan: the worked examples of a few-shot prompt', () => {
  it('runs from the first question label to the open query, without the instruction above', () => {
    const span = spanText(QA)!;
    assert.ok(span.startsWith('Q: A farmer'), span);
    assert.ok(span.endsWith('The answer is 15.\n\n'), span);
  });

  it('reads prompts without blank lines, with an answer cue, and with other labels', () => {
    const dense = 'Input: red\nOutput: rouge\nInput: blue\nOutput: bleu\nInput: green\nOutput:';
    assert.equal(spanText(dense), 'Input: red\nOutput: rouge\nInput: blue\nOutput: bleu\n');
    const cue = QA.replace(/^A: /gm, "A: Let's think step by step. ").replace(/A:$/, "A: Let's think step by step.");
    assert.ok(spanText(cue)!.startsWith('Q: A farmer'));
    // A last line with text the examples' answers do not open with is a turn, not an open answer.
    assert.equal(demoSpan(QA.replace(/A:$/, 'A: Fine, talk tomorrow.')), null);
  });

  it('reads unlabelled multiple-choice questions closed by "Answer: X", one paragraph each', () => {
    const mc = [
      'The following are questions about cells.',
      '',
      'Which part of a cell makes the energy?\nA. Nucleus\nB. Mitochondrion\nAnswer: B',
      '',
      'Which part holds the genes?\nA. Nucleus\nB. Wall\nAnswer: A',
      '',
      'Which part is found only in plants?\nA. Wall\nB. Ribosome\nAnswer:',
    ].join('\n');
    const span = spanText(mc)!;
    assert.ok(span.startsWith('Which part of a cell'), span);
    assert.ok(span.endsWith('Answer: A\n\n'), span);
  });

  it('reads examples whose reasoning is closed by an answer under another label ("Reasoning: … / Answer: (A)")', () => {
    const puzzles = [
      'Work out the order, then choose one option.',
      '',
      'Puzzle: Ann is ahead of Bo. Cy is last.',
      'Question: Who is first?',
      '(A) Ann',
      '(B) Cy',
      'Reasoning: Cy is last and Ann is ahead of Bo, so the order is Ann, Bo, Cy.',
      'Answer: (A)',
      '',
      'Puzzle: The red box is left of the blue box. The green box is right of the blue box.',
      'Question: Which box is in the middle?',
      '(A) The blue box',
      '(B) The red box',
      'Reasoning: The order is red, blue, green, so the blue box is in the middle.',
      'Answer: (A)',
      '',
      'Puzzle: A van leaves before a bus. A car leaves after the bus.',
      'Question: Which leaves first?',
      '(A) The car',
      '(B) The van',
      'Reasoning:',
    ].join('\n');
    const span = spanText(puzzles)!;
    assert.ok(span.startsWith('Puzzle: Ann is ahead'), span);
    assert.ok(span.endsWith('Answer: (A)\n\n'), span);
    // The reasoning is worked steps: balanced prunes it with the rest of the examples.
    const out = compressText(puzzles, 'balanced');
    assert.ok(out.includes('Puzzle: Red box is left of blue box.'), out);
    assert.ok(out.includes('Reasoning: Order is red, blue, green, so blue box is in middle.'), out);
    assert.ok(out.endsWith('Puzzle: A van leaves before a bus. A car leaves after the bus.\nQuestion: Which leaves first?\n(A) The car\n(B) The van\nReasoning:'), out);
    // A prompt without blank lines reads its question label as the next example's, not as a closing one.
    assert.equal(spanText('Q: one\nA: 1\nQ: two\nA: 2\nQ: three\nA:'), 'Q: one\nA: 1\nQ: two\nA: 2\n');
  });

  it('reads no conversation, translation or correction as examples', () => {
    const chat = 'User: Do you have the bike in a medium frame?\nAssistant: Yes, in the red and the black colour.\nUser: What is the price of the black one?\nAssistant: It is $749, the same as the red one.\nUser: Is there a warranty on the frame?\nAssistant:';
    assert.equal(demoSpan(chat), null);
    const translate = 'Input: The cat is sleeping on the sofa.\nOutput: Die Katze schläft auf dem Sofa.\n\nInput: The train to the airport is late.\nOutput: Der Zug zum Flughafen hat Verspätung.\n\nInput: The dog is in the garden.\nOutput:';
    assert.equal(demoSpan(translate), null);
    const correct = 'Input: She bought a apple and a orange at the market.\nOutput: She bought an apple and an orange at the market.\n\nInput: I have went to the store yesterday.\nOutput: I went to the store yesterday.\n\nInput: We was waiting for an bus.\nOutput:';
    assert.equal(demoSpan(correct), null);
    assert.equal(compressText(correct, 'balanced'), correct);
  });

  it('shortens "Which of the following" in the examples\' questions, not in the open one, in balanced and aggressive', () => {
    const mc = 'Which of the following is a mammal?\nA. Shark\nB. Whale\nAnswer: B\n\nWhich of the following is a bird?\nA. Bat\nB. Owl\nAnswer: B\n\nWhich of the following is a fish?\nA. Trout\nB. Frog\nAnswer:';
    for (const level of ['balanced', 'aggressive'] as const) {
      const out = compressText(mc, level);
      assert.ok(out.startsWith('Which is a mammal?\nA. Shark'), out);
      assert.ok(/Which of (?:the )?following is a fish\?/.test(out), out);
      assert.ok(!out.includes('Which is fish'), out);
    }
  });

  it('leaves examples whose answers quote their input (an extraction, a sentence judged word for word)', () => {
    const extraction = 'Text: The startup raised $5 million from a group of investors.\nOutput: {"company": "the startup"}\n\nText: The bakery on Main Street lost a contract.\nOutput: {"company": "the bakery on Main Street"}\n\nText: A firm in Leeds won a tender.\nOutput:';
    assert.equal(compressText(extraction, 'balanced'), extraction);
  });

  it('finds no examples where there are none', () => {
    assert.equal(demoSpan('Summarize the text below.\n\nThe cat sat on the mat.'), null);
    // One example is a sample of the format, not a set of examples.
    assert.equal(demoSpan('Q: What is 2 + 2?\nA: 4\n\nQ: What is 3 + 3?\nA:'), null);
    // A transcript or a list of answered questions: no open answer at the end.
    assert.equal(demoSpan('Q: a question\nA: an answer\nQ: another\nA: another answer\nQ: third\nA: the third answer is long enough to be a real answer here'), null);
    // Lines run into the open query without a blank line or a label: where it starts is unknown.
    assert.equal(demoSpan('Answer: B\nWhich one?\nAnswer: C\nWhich other?\nA. x\nAnswer:'), null);
  });
});

describe('balanced drops articles in the examples only', () => {
  const out = compressText(QA, 'balanced');

  it('prunes the examples by the rule of aggressive', () => {
    assert.ok(out.includes('Q: Farmer has barn with 12 cows. How many legs do cows have?'), out);
    assert.ok(out.includes('Q: Shop sells pen for $3.'), out);
    assert.ok(out.includes('A: Each cow has 4 legs, so cows have 12 * 4 = 48 legs. The answer is 48.'), out);
    assert.ok(out.includes('A: Price of pen is $3'), out);
  });

  it('keeps the articles of answers that are the output itself (a summary, a copied span); their inputs lose theirs', () => {
    const summaries = [
      'Summarize each article in one sentence.',
      '',
      'Article: The council voted on Monday to close the old library in the spring.',
      'Summary: The council will close the old library in the spring.',
      '',
      'Article: A hiker spent the night on a ledge before a crew rescued her.',
      'Summary: A hiker was rescued after a night on a ledge.',
      '',
      'Article: The city will build a bike lane along the river.',
      'Summary:',
    ].join('\n');
    const out = compressText(summaries, 'balanced');
    assert.ok(out.includes('Article: council voted on Monday to close old library'), out);
    assert.ok(out.includes('Summary: The council will close the old library in the spring.'), out);
    assert.ok(out.includes('Summary: A hiker was rescued after a night on a ledge.'), out);
    assert.ok(out.endsWith('Article: The city will build a bike lane along the river.\nSummary:'), out);
    // Worked answers (chain of thought) are read for their steps: they lose their articles.
    assert.ok(compressText(QA, 'balanced').includes('A: Price of pen is $3'), compressText(QA, 'balanced'));
    // aggressive prunes the rest of the prompt, not the answers the model copies.
    const aggressive = compressText(summaries, 'aggressive');
    assert.ok(aggressive.includes('Summary: A hiker was rescued after a night on a ledge.'), aggressive);
    assert.ok(aggressive.includes('Article: council voted on Monday to close old library'), aggressive);
    assert.ok(compressText(QA, 'aggressive').includes('A: Price of pen'), compressText(QA, 'aggressive'));
    assert.equal(compressText(aggressive, 'aggressive'), aggressive);
  });

  it('leaves the words of answers that are the output in balanced too, and the query that is the material of the task', () => {
    const formal = [
      'Rewrite each message in a formal register. Please keep every fact.',
      '',
      'Original: hey, the printer is busted again, use the one by the kitchen',
      'Rewrite: Please note that the printer is out of order; kindly use the printer near the kitchen.',
      '',
      'Original: can we just push the call to Thursday, something came up',
      'Rewrite: Would it be possible to move the call to Thursday? Something has come up.',
      '',
      'Original: Basically, please just send me the report by Friday, okay?',
      'Rewrite:',
    ].join('\n');
    for (const level of ['balanced', 'aggressive'] as const) {
      const out = compressText(formal, level);
      assert.ok(out.includes('Rewrite: Please note that the printer is out of order; kindly use the printer near the kitchen.'), `${level}: ${out}`);
      assert.ok(out.endsWith('Original: Basically, please just send me the report by Friday, okay?\nRewrite:'), `${level}: ${out}`);
      assert.ok(out.startsWith('Rewrite each message in'), `${level}: ${out}`);
      assert.ok(!out.includes('Please keep every fact'), `${level}: the instruction is pruned: ${out}`);
      assert.ok(checkRetention(formal, out, level).ok, level);
      assert.equal(compressText(out, level), out, `${level} idempotent`);
    }
  });

  it('leaves a correction\'s examples whole in aggressive: the articles and verbs are what it corrects', () => {
    const fix = [
      'Correct the grammar of each sentence.',
      '',
      'Input: Between you and I, the report were finished in a hurry.',
      'Output: Between you and me, the report was finished in a hurry.',
      '',
      'Input: I would of taken a earlier train.',
      'Output: I would have taken an earlier train.',
      '',
      'Input: They is going to recieve the package irregardless of the whether.',
      'Output:',
    ].join('\n');
    const out = compressText(fix, 'aggressive');
    assert.ok(out.endsWith(fix.slice(fix.indexOf('Input: Between'))), out);
    assert.ok(checkRetention(fix, out, 'aggressive').ok);
  });

  it('keeps a list under a field header in every record, where two records list the same (each example\'s candidates)', () => {
    const text = 'Link the mention.\n\nText: After the match, Mercury told reporters the team was tired.\nCandidates:\nKB:10234 Mercury (planet) - smallest planet in the Solar System\nKB:10587 Mercury (element) - chemical element, symbol Hg\nID: KB:10234\n\nText: The old thermometer still used mercury, so it was hazardous.\nCandidates:\nKB:10234 Mercury (planet) - smallest planet in the Solar System\nKB:10587 Mercury (element) - chemical element, symbol Hg\nID: KB:10587\n\nText: Ferries leave Victoria daily.\nCandidates:\nKB:20871 Victoria (state) - state in Australia\nID:';
    for (const level of ['safe', 'balanced', 'aggressive'] as const) {
      const out = compressText(text, level);
      assert.equal(out.split('KB:10587 Mercury (element)').length, 3, `${level}: ${out}`);
    }
  });

  it('reads a spoken dialogue that ends in an open turn as a transcript, not as examples to copy', () => {
    const dialogue = 'Continue the dialogue.\n\nAnn: So, um, I think we should, you know, ship it on Friday.\nBob: Well, uh, the tests are, like, still failing on the build server.\nAnn: Okay, um, can you fix them by Thursday?\nBob: I mean, yeah, I can do that, um, if nothing else breaks.\nAnn: Great, so, um, Friday it is then.\nBob:';
    const out = compressText(dialogue, 'balanced');
    assert.ok(!/\b(?:um|uh)\b/.test(out), out);
    assert.ok(out.includes('Bob: Well the tests are still failing on the build server.'), out);
  });

  it('leaves the instruction and the open query as written', () => {
    assert.ok(out.startsWith('Answer the questions about the stories.'), out);
    assert.ok(out.endsWith('Q: A bus carries the same 40 people on each of 3 trips. How many rides is that?\nA:'), out);
  });

  it('keeps every number, and the retention check agrees with the compressor', () => {
    assert.ok(checkRetention(QA, out, 'balanced').ok);
    assert.equal(compressText(out, 'balanced'), out);
  });

  it('keeps a capital "A" in examples that use A as a name', () => {
    const named = QA.replace('Each cow has 4 legs', 'Let A be the cows. A has 4 legs each');
    assert.ok(compressText(named, 'balanced').includes('Q: A farmer has barn'));
  });

  it('leaves a prompt without examples alone, and safe leaves examples alone', () => {
    const plain = 'Summarize the report. The report covers the sales of the quarter.';
    assert.equal(compressText(plain, 'balanced'), plain);
    assert.equal(compressText(QA, 'safe'), QA);
  });

  it('leaves examples in another language as they are', () => {
    const de = 'F: Wie viele Beine hat eine Katze?\nA: Eine Katze hat 4 Beine.\n\nF: Wie viele Beine hat ein Huhn?\nA: Ein Huhn hat 2 Beine.\n\nF: Wie viele Beine hat ein Hund?\nA:';
    assert.equal(compressText(de, 'balanced'), de);
  });
});

describe('the retention checker owes what balanced keeps, no more', () => {
  it('reads examples closed by an open label the checker would drop as an empty turn', () => {
    const nli = 'Premise: A man is playing an old guitar.\nHypothesis: A person makes music.\nLabel: entailment\n\nPremise: A dog sleeps under an oak.\nHypothesis: The dog is running.\nLabel: contradiction\n\nPremise: A woman reads on a train.\nHypothesis: She is going to work.\nLabel:';
    const out = compressText(nli, 'balanced');
    assert.ok(out.includes('playing old guitar'), out);
    assert.deepEqual(checkRetention(nli, out, 'balanced').missing, []);
  });

  it('owes no calculator note whose step writes the expression with spaces', () => {
    const step = 'Q: How many?\nA: She sold 48 / 2 = <<48/2=24>>24 clips. The answer is 24.';
    const out = compressText(step, 'balanced');
    assert.equal(out, 'Q: How many?\nA: She sold 48 / 2 = 24 clips. The answer is 24.');
    assert.deepEqual(checkRetention(step, out, 'balanced').missing, []);
  });
});
