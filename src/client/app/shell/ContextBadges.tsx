// App and Realm badges for pages whose context has showInHeader (section 2.2). A chunk of its own:
// most sign-in pages do not show them.
import '@mantine/core/styles/Badge.css';
import { Badge, Group } from '@mantine/core';
import type { Context } from '../../../contract/entities';
import { shellTexts } from '../texts';

export default function ContextBadges({ context }: { context: Context }) {
  return (
    <Group gap="xs">
      <Badge variant="light">{shellTexts.appBadge(context.appCode)}</Badge>
      <Badge variant="light">{shellTexts.realmBadge(context.realmCode)}</Badge>
    </Group>
  );
}
