/**
 * Which command the panes show: the newest unless the operator chose one; a takeover taken or
 * handed back returns them to the session's current command, unless the operator pinned one.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { CommandInfo } from '../../shared/contract.js';
import { shownCommand, useConsole } from './store.js';

const cmd = (id: string): CommandInfo => ({ id, sessionId: 's/w', command: `echo ${id}`, startedAt: 0, state: 'done', rawBytes: 0, rawLines: 0 });

describe('the panes follow the session', () => {
  beforeEach(() => useConsole.setState({ timelines: { 's/w': [cmd('c1'), cmd('c2')] }, selectedCommand: {}, pinned: {} }));

  it('after a takeover the panes leave an earlier row the operator looked at and follow the newest', () => {
    const st = useConsole.getState();
    st.selectCommand('s/w', 'c1');
    expect(shownCommand(useConsole.getState(), 's/w')?.id).toBe('c1');
    st.follow('s/w');
    useConsole.getState().upsertCommand(cmd('c3'));
    expect(shownCommand(useConsole.getState(), 's/w')?.id).toBe('c3');
  });

  it('a pinned row stays through takeovers and new commands; choosing another row ends the pin', () => {
    const st = useConsole.getState();
    st.selectCommand('s/w', 'c1');
    st.pin('s/w', true);
    st.follow('s/w');
    useConsole.getState().upsertCommand(cmd('c3'));
    expect(shownCommand(useConsole.getState(), 's/w')?.id).toBe('c1');
    useConsole.getState().selectCommand('s/w', 'c2');
    expect(useConsole.getState().pinned['s/w']).toBeUndefined();
  });

  it('pinning with nothing chosen pins the command shown now (the newest)', () => {
    useConsole.getState().pin('s/w', true);
    useConsole.getState().upsertCommand(cmd('c3'));
    expect(shownCommand(useConsole.getState(), 's/w')?.id).toBe('c2');
  });
});
