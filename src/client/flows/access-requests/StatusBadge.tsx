// An access request's status as a badge (Pending, Approved, Rejected), in the list and on a request.
import '@mantine/core/styles/Badge.css';
import { Badge } from '@mantine/core';
import { ERROR_TEXT, WARNING_TEXT } from '../../app/theme';
import { accessRequestsTexts as t } from './access-requests.texts';

/** A green that keeps white text at 6:1 (Mantine's green.9 gives 4.4:1 only). */
export const APPROVE_COLOUR = '#237032';

/** Filled badges in shades that keep white text at 4.5:1 or more. */
const STATUS_COLOUR: Record<string, string> = {
  PENDING: WARNING_TEXT,
  APPROVED: APPROVE_COLOUR,
  REJECTED: ERROR_TEXT,
};

export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge variant="filled" color={STATUS_COLOUR[status] ?? 'dark'} data-status={status}>
      {t.status[status] ?? status}
    </Badge>
  );
}
