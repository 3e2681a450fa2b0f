/** API-09 aggressive: transcripts with a time on every turn (Teams, Otter, Zoom chat) read as turns (timed-turns.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compressText } from '../src/services/tokenslimmer/core.ts';
import { checkRetention } from '../src/services/tokenslimmer/retention.ts';

const teams = `Which date did we land on?

Cutover Sync-20240312_130214-Meeting Recording
March 12, 2024, 1:02PM

Priya Raman started transcription

Priya Raman   0:03
OK, I think it's recording. Can everyone hear me?

Tomás Wiśniewski   0:06
Yep.

Priya Raman   0:09
Great. So the main thing today is the cutover date.

Tomás Wiśniewski   0:21
Yeah. Racking in aisles one through 14 is done.
The mezzanine inspection got pushed to April 4.

Priya Raman   0:45
Mm-hmm.

Grace Okafor   0:47
Thank you.

Grace Okafor   0:50
Mm-hmm. Right. The label test still fails on one in 30 shipments.

Priya Raman   1:10
So we move the cutover to April 22.

Priya Raman stopped transcription`;

const standup = `[00:00:07] Kevin Tran: Let's go quick. Aisha, you want to start?
[00:00:11] Aisha Noor: Yeah. I finished the offline sync.
[00:00:16] Kevin Tran: Okay.
[00:00:17] Aisha Noor: No blockers.
[00:00:20] Kevin Tran: Okay, cool.
[00:00:24] Leo Brandt: The crash on Android 12 is the image picker.`;

const zoomChat = `10:01:44 From  Maya Chen  to  Everyone:
\tAgenda: https://docs.example/plan
10:07:48 From  Rosa Delgado  to  Everyone:
\tBrightwell still hasn't signed the addendum
10:12:06 From  Felix Andersson  to  Everyone:
\tReacted to "Brightwell still hasn't..." with 👍
10:18:22 From  Maya Chen  to  Everyone:
\tDECISION: wave 1 = 14 accounts

\t(Brightwell moved to wave 2)
10:18:40 From  Rosa Delgado  to  Everyone:
\t+1`;

function roundTrip(text: string): string {
  const out = compressText(text, 'aggressive');
  const retention = checkRetention(text, out, 'aggressive');
  assert.ok(retention.ok, JSON.stringify(retention.missing));
  assert.equal(compressText(out, 'aggressive'), out);
  return out;
}

describe('API-09 timed transcripts in aggressive', () => {
  it('a Teams export: each header joins its text as "Name (time): text"; acknowledgements and notices go', () => {
    const out = roundTrip(teams);
    assert.ok(out.includes('Priya Raman (0:03): OK, I think'), out);
    // "Yep." answers the question before it and stays; a turn's lines join, its opening "Yeah." goes
    assert.ok(out.includes('Tomás Wiśniewski (0:06): Yep.'), out);
    assert.ok(/Tomás Wiśniewski \(0:21\): Racking in aisles one through 14 .*done\. .*inspection got pushed to April 4\./.test(out), out);
    // "Mm-hmm." and "Thank you." alone go with their times; an opening "Mm-hmm. Right." goes
    assert.ok(!out.includes('0:45') && !out.includes('0:47') && !out.includes('Thank you'), out);
    assert.ok(out.includes('Grace Okafor (0:50): Label test') || out.includes('Grace Okafor (0:50): The label test'), out);
    assert.ok(!out.includes('started transcription') && !out.includes('stopped transcription'), out);
    assert.ok(out.includes('April 22') && out.includes('one in 30'), out);
    // the blank lines between turns go
    assert.ok(!/\)[^\n]*\n\n[^\n]*\(\d/.test(out), out);
  });

  it('a time before the label: the acknowledgement turns go unless they answer', () => {
    const out = roundTrip(standup);
    assert.ok(out.includes('Aisha Noor (00:00:11): Yeah.'), out);
    assert.ok(!out.includes('00:00:16') && !out.includes('00:00:20') && !out.includes('cool'), out);
    assert.ok(out.includes('(00:00:17): No blockers.') && out.includes('Android 12'), out);
  });

  it("Zoom's saved chat: one line per message, reactions and +1 go, a message's blank line too", () => {
    const out = roundTrip(zoomChat);
    assert.ok(out.includes('Maya Chen (10:01:44): Agenda: https://docs.example/plan'), out);
    assert.ok(out.includes('(10:18:22): DECISION: wave 1 = 14 accounts (Brightwell moved to wave 2)'), out);
    assert.ok(!out.includes('Reacted') && !out.includes('+1') && !out.includes('From'), out);
  });

  it('leaves safe and balanced, a schedule without text under its times, and one speaker alone', () => {
    assert.ok(compressText(teams, 'balanced').includes('Priya Raman 0:03\nOK'));
    assert.ok(compressText(teams, 'safe').includes('Grace Okafor 0:47\nThank you.'));
    const schedule = 'Programme\n\nRegistration 9:00\n\nKeynote 9:30\n\nLunch 12:30\n\nPanel 13:30\n\nClose 17:00';
    assert.equal(compressText(schedule, 'aggressive'), schedule);
    const lecture = Array.from({ length: 5 }, (_, k) => `Ann Lee ${k}:0${k}\nPoint ${k} of the lecture.`).join('\n\n');
    assert.ok(compressText(lecture, 'aggressive').includes('Ann Lee 0:00\nPoint 0'));
  });

  it('a speaker named in letters outside ASCII is a speaker: her acknowledgement-only turn goes', () => {
    const turns = Array.from({ length: 6 }, (_, k) => `José Pérez: The budget for phase ${k + 1} stays at ${k + 2}0 thousand.\nAna Ruíz: Yeah.`).join('\n');
    const out = compressText(turns, 'aggressive');
    assert.ok(!out.includes('Ana Ruíz'), out);
    assert.ok(out.includes('phase 6') && out.includes('70 thousand'), out);
  });
});
