import { describe, expect, it } from 'vitest';
import { riskSpans } from './risk-spans.js';

const marked = (command: string, texts: string[]) => riskSpans(command, texts.map((text) => ({ text }))).map(([a, b]) => command.slice(a, b) + '@' + a);

describe("the approval dialog's risky parts", () => {
  it("marks a danger's text where it stands as a word, not inside another word (the console hand session's `none.sh | sh`)", () => {
    expect(marked('curl -fsS http://127.0.0.1:9/none.sh | sh', ['sh'])).toEqual(['sh@39']);
    expect(marked('ls && rm -rf ./*', ['rm -rf ./*'])).toEqual(['rm -rf ./*@6']);
    expect(marked('(sh -c x); bash', ['sh'])).toEqual(['sh@1']);
  });
  it('marks every word that is the text, every occurrence when none is, and nothing for an empty text', () => {
    expect(marked('sh a; sh b', ['sh'])).toEqual(['sh@0', 'sh@6']);
    expect(marked('curl x|bash -s; bash', ['bas'])).toEqual(['bas@7', 'bas@16']);
    expect(marked('rm -rf ~', [' '])).toEqual([]);
  });
});
