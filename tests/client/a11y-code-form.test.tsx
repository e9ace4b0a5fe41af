// The one-time code form's resend link is disabled while it sends and after a refusal; the focus the
// keyboard user had on it must not fall to the page (WCAG 2.4.3): a refused resend takes it to the
// refusal, a resend sent gives it back to the link.
import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { CodeForm, type CodeFormProps } from '../../src/client/flows/forced/shared/CodeForm';
import { forcedTexts as t } from '../../src/client/flows/forced/shared/forced.texts';

function mount() {
  const props: CodeFormProps = {
    name: 'SMS verification',
    submitLabel: 'Verify',
    busy: false,
    codeError: null,
    onSubmit: vi.fn(),
    resend: { onResend: vi.fn(), busy: false, refusal: null },
  };
  const view = render(
    <MantineProvider>
      <CodeForm {...props} />
    </MantineProvider>,
  );
  const update = (resend: Partial<NonNullable<CodeFormProps['resend']>>) =>
    view.rerender(
      <MantineProvider>
        <CodeForm {...props} resend={{ ...props.resend!, ...resend }} />
      </MantineProvider>,
    );
  return { ...view, update };
}

const link = () => screen.getByRole('button', { name: t.resendCode });

describe('the resend link', () => {
  it('a refused resend moves the focus to its message', () => {
    const m = mount();
    link().focus();
    m.update({ busy: true });
    m.update({ busy: false, refusal: 'Too many codes were sent. Try again later.' });
    expect(link()).toBeDisabled();
    const refusal = screen.getByRole('alert');
    expect(refusal).toHaveTextContent('Too many codes were sent. Try again later.');
    expect(refusal).toHaveFocus();
  });

  it('a resend sent gives the focus back to the link when it was dropped', () => {
    const m = mount();
    link().focus();
    // The browser drops the focus of the button that becomes disabled (jsdom keeps it there).
    link().blur();
    m.update({ busy: true });
    expect(document.activeElement).toBe(document.body);
    m.update({ busy: false });
    expect(link()).toHaveFocus();
  });
});
