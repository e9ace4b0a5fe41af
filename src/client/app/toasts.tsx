// The shell's toasts (section 2.2 and 8): the previous sign-in notice (8 s), the api layer's notices
// (8 s), and 'Update available' with 'Reload page', which stays until dismissed. Escape dismisses
// the toast that has the focus, else the most recent one (WCAG 2.1.2, 2.4.11).
import { Button, Group, Stack, Text } from '@mantine/core';
import { notifications, notificationsStore } from '@mantine/notifications';
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import type { PreviousSignInAttempt } from '../../contract/entities';
import { selectUpdateAvailable } from '../../../machines/session/app-version/app-version.select';
import { TOAST_DURATION_MS } from './constants';
import { onNotice, type Notice, type NoticeTone } from './notices';
import { previousSignInMessage } from './previous-sign-in';
import { previousSignInTexts, shellTexts } from './texts';
import type { AppVersionActor } from './version/app-version';
import { useAppVersionActor } from './version/app-version';
import { toastTexts } from './toast.texts';

export const PREVIOUS_SIGN_IN_TOAST_ID = 'previous-sign-in';
/** Mantine's notification text is gray 6 (3.3:1); the toasts' own text is darker (WCAG AA). */
const TOAST_TEXT = 'gray.8';
const closeButtonProps = { 'aria-label': shellTexts.dismiss };
export const UPDATE_AVAILABLE_TOAST_ID = 'update-available';
/** Each toast's id on its element, for Escape to tell which toast has the focus. */
const TOAST_ID_ATTRIBUTE = 'data-toast-id';
const toastIdProps = (id: string) => ({ id, [TOAST_ID_ATTRIBUTE]: id });

const toneColor: Record<NoticeTone, string> = {
  info: 'blue',
  success: 'teal',
  warning: 'orange',
  error: 'red',
};

export function showPreviousSignInToast(attempt: PreviousSignInAttempt): void {
  const lines = previousSignInMessage(attempt);
  const needsAttention = attempt.isGeolocationDifferent || !attempt.isSuccessful;
  notifications.hide(PREVIOUS_SIGN_IN_TOAST_ID);
  notifications.show({
    ...toastIdProps(PREVIOUS_SIGN_IN_TOAST_ID),
    title: previousSignInTexts.title,
    color: needsAttention ? toneColor.warning : toneColor.info,
    autoClose: TOAST_DURATION_MS,
    closeButtonProps,
    message: (
      <Stack gap={4}>
        {lines.map((line) => (
          <Text key={line} size="sm" c={TOAST_TEXT}>
            {line}
          </Text>
        ))}
      </Stack>
    ),
  });
}

export function showNoticeToast(notice: Notice): void {
  // The same message twice (two calls answered 401 together) shows one toast.
  const id = `notice:${notice.message}`;
  notifications.hide(id);
  notifications.show({
    ...toastIdProps(id),
    title: notice.title,
    message: (
      <Text size="sm" c={TOAST_TEXT}>
        {notice.message}
      </Text>
    ),
    color: toneColor[notice.tone],
    autoClose: TOAST_DURATION_MS,
    closeButtonProps,
  });
}

/**
 * Escape elsewhere first belongs to what is open there: a dialog (a modal, a popover, the date
 * picker), a menu, a list of options or an expanded combobox.
 */
const ESCAPE_TAKEN_BY = '[role="dialog"], [aria-modal="true"], [role="menu"], [role="listbox"]';

/**
 * Escape dismisses the toast that has the focus, else the most recent toast, unless something open
 * on the page takes it. A toast that stays until dismissed ('Update available') is thus dismissed
 * from anywhere by keyboard, and one that covers the focused control goes with one key (WCAG 2.1.2,
 * 2.4.11). Dismissing through Mantine runs the toast's onClose, as its close button does.
 */
export function dismissToastOnEscape(event: KeyboardEvent): void {
  if (event.key !== 'Escape' || event.defaultPrevented) return;
  const target = event.target instanceof Element ? event.target : null;
  let id = target?.closest(`[${TOAST_ID_ATTRIBUTE}]`)?.getAttribute(TOAST_ID_ATTRIBUTE) ?? undefined;
  if (id === undefined) {
    if (document.querySelector(ESCAPE_TAKEN_BY) || target?.closest('[aria-expanded="true"]')) return;
    id = notificationsStore.getState().notifications.at(-1)?.id;
  }
  if (id === undefined) return;
  event.preventDefault();
  notifications.hide(id);
}

/** Listens for Escape on the whole document, for as long as the toasts are there. */
export function ToastEscape() {
  useEffect(() => {
    document.addEventListener('keydown', dismissToastOnEscape);
    return () => document.removeEventListener('keydown', dismissToastOnEscape);
  }, []);
  return null;
}

/** Shows the notices the api layer raises (401 session expired, 422 reroute message). */
export function NoticeToasts() {
  useEffect(() => onNotice(showNoticeToast), []);
  return null;
}

function UpdateAvailableToastFor({ actor }: { actor: AppVersionActor }) {
  const updateAvailable = useSelector(actor, selectUpdateAvailable);
  useEffect(() => {
    if (!updateAvailable) {
      notifications.hide(UPDATE_AVAILABLE_TOAST_ID);
      return;
    }
    notifications.show({
      ...toastIdProps(UPDATE_AVAILABLE_TOAST_ID),
      title: toastTexts.updateAvailable,
      autoClose: false,
      withCloseButton: true,
      closeButtonProps,
      // Mantine also calls onClose when the app hides the toast itself (after a reload request or
      // once the machine left updateAvailable): only the user's close counts as dismissal.
      onClose: () => {
        if (actor.getSnapshot().matches('updateAvailable')) actor.send({ type: 'user.dismiss' });
      },
      message: (
        <Group justify="space-between" gap="sm" wrap="nowrap">
          <Text size="sm" c={TOAST_TEXT}>
            {toastTexts.updateAvailableMessage}
          </Text>
          <Button size="xs" onClick={() => actor.send({ type: 'user.reload' })}>
            {shellTexts.reloadPage}
          </Button>
        </Group>
      ),
    });
  }, [actor, updateAvailable]);
  return null;
}

/** 'Update available', driven by the app-version watcher; stays until dismissed or reloaded. */
export function UpdateAvailableToast() {
  const actor = useAppVersionActor();
  return actor ? <UpdateAvailableToastFor actor={actor} /> : null;
}
