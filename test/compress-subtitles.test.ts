/** API-09 aggressive: subtitle transcripts (WebVTT, SRT) read as turns (subtitles.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compressText } from '../src/services/tokenslimmer/core.ts';
import { checkRetention } from '../src/services/tokenslimmer/retention.ts';

const zoom = `Summarise the sync.

WEBVTT

1
00:00:03.200 --> 00:00:08.914
Rachel Kim: Can we ship offline mode before the September 15 conference?

2
00:00:09.314 --> 00:00:12.243
Marcus Lee: Yeah.

3
00:00:12.643 --> 00:00:23.500
Marcus Lee: If we start July 1, yes.
But not if we also do SSO.

4
00:00:23.900 --> 00:00:25.100
David Osei: Mm-hmm.

5
00:00:25.500 --> 00:00:31.000
David Osei: SSO is worth eighty thousand a year to us.
${Array.from({ length: 6 }, (_, k) => `\n${6 + k}\n00:00:${32 + 2 * k}.000 --> 00:00:${33 + 2 * k}.000\n${k % 2 === 0 ? 'Rachel Kim' : 'David Osei'}: Point ${k + 1} of the plan is agreed.`).join('\n')}`;

const teams = `WEBVTT

8c1d2f3a-5b6e-4c7d/12-0
00:00:01.000 --> 00:00:07.533
<v Sophie Wagner>The incident started at 14:05 UTC.</v>

2f7a9c3e-1d4b-4e8a/13-0
00:00:07.833 --> 00:00:14.300
<v Sophie Wagner>Checkout errors went from 0.2% to 18%.</v>

8c1d2f3a-5b6e-4c7d/14-0
00:00:14.600 --> 00:00:22.667
<v Tom Hughes>The alert did not fire until 14:19.</v>`;

describe('API-09 subtitle transcripts in aggressive', () => {
  it('a Zoom VTT becomes turns with their start times; numbers, end times and acknowledgements go', () => {
    const out = compressText(zoom, 'aggressive');
    assert.ok(!out.includes('WEBVTT') && !out.includes('-->') && !out.includes('08.914'), out);
    assert.ok(out.includes('Rachel Kim: [00:00:03]'), out);
    // "Yeah." answers the question and stays; "Mm-hmm." answers nothing and goes
    assert.ok(out.includes('Yeah') && !out.includes('Mm-hmm'), out);
    // a cue's lines join; one speaker's cues join into one turn
    assert.ok(/Marcus Lee: \[00:00:09\] Yeah\.? \[00:00:12\] If we start July 1, yes\. But not if we also do SSO\./.test(out), out);
    assert.ok(out.includes('September 15') && out.includes('eighty thousand'), out);
    assert.ok(checkRetention(zoom, out, 'aggressive').ok, JSON.stringify(checkRetention(zoom, out, 'aggressive').missing));
    assert.equal(compressText(out, 'aggressive'), out);
  });

  it('Teams voice spans name the speaker; cue identifiers go', () => {
    const out = compressText(teams, 'aggressive');
    assert.ok(!out.includes('8c1d2f3a') && !out.includes('<v'), out);
    assert.ok(out.includes('Sophie Wagner: [00:00:01]') && out.includes('Tom Hughes: [00:00:14]'), out);
    assert.ok(out.includes('14:05 UTC') && out.includes('0.2%') && out.includes('14:19'), out);
    assert.ok(checkRetention(teams, out, 'aggressive').ok);
  });

  it('safe and balanced keep every cue number and time; two timing lines are no transcript', () => {
    for (const level of ['safe', 'balanced'] as const) {
      const out = compressText(zoom, level);
      assert.ok(out.includes('00:00:03.200 --> 00:00:08.914') && /^3$/m.test(out), out);
    }
    const two = 'Log:\n00:00:01.000 --> 00:00:02.000\nstart\n\n00:00:03.000 --> 00:00:04.000\nend';
    assert.ok(compressText(two, 'aggressive').includes('00:00:01.000 --> 00:00:02.000'));
  });
});
