// /access-requests: guarded now (admins and VIEW_ACCESS_REQUESTS holders land here after sign-in);
// the list and the request tabs arrive with the access-requests issue.
import { Title } from '@mantine/core';
import { accessRequestsTexts } from './placeholder.texts';

export default function AccessRequestsPage() {
  return <Title order={1}>{accessRequestsTexts.heading}</Title>;
}
