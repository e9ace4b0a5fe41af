// The computed-style reuse of tests/setup-computed-style.ts must never hide a change: a style
// changed by an event or by React work flushed in act is seen by the very next query.
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { computedStyleCacheActive } from '../setup-computed-style';

function Toggle() {
  const [hidden, setHidden] = useState(false);
  return (
    <div>
      <button onClick={() => setHidden(true)}>Hide</button>
      <p style={hidden ? { display: 'none' } : {}} role="note">
        Note
      </p>
    </div>
  );
}

describe('computed styles reused within one synchronous stretch', () => {
  it('is in use while a query runs, and dropped at the next microtask', async () => {
    render(<Toggle />);
    screen.getByRole('note');
    expect(computedStyleCacheActive()).toBe(true);
    await Promise.resolve();
    expect(computedStyleCacheActive()).toBe(false);
  });

  it('sees an element hidden by a fired event in the same stretch', () => {
    render(<Toggle />);
    expect(screen.getByRole('note')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Hide' }));
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('sees an element hidden by React work flushed in act', () => {
    let hide!: () => void;
    function Hideable() {
      const [hidden, setHidden] = useState(false);
      hide = () => setHidden(true);
      return (
        <p style={hidden ? { display: 'none' } : {}} role="note">
          Note
        </p>
      );
    }
    render(<Hideable />);
    expect(screen.getByRole('note')).toBeInTheDocument();
    act(() => hide());
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('sees an element hidden by a user-event click', async () => {
    render(<Toggle />);
    expect(screen.getByRole('note')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Hide' }));
    expect(screen.queryByRole('note')).toBeNull();
  });
});
