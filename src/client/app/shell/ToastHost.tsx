// The toasts, loaded after the first paint: @mantine/notifications' container (with its transitions
// and scroll locking), the api notices and the 'Update available' toast are not needed to draw the
// sign-in page. Toasts asked for before this arrives wait in the notifications store. Escape
// dismisses a toast (ToastEscape).
import '@mantine/core/styles/Notification.css';
import '@mantine/notifications/styles.css';
import './toasts.css';
import { Notifications } from '@mantine/notifications';
import { NoticeToasts, ToastEscape, UpdateAvailableToast } from '../toasts';

export default function ToastHost() {
  return (
    <>
      <Notifications position="bottom-right" className="portal-toasts" />
      <NoticeToasts />
      <ToastEscape />
      <UpdateAvailableToast />
    </>
  );
}
