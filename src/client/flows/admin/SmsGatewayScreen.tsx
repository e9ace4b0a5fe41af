// /admin/sms-gateway: the switch that turns SMS verification codes off (and on) for everyone.
// The switch is disabled while its change is saved, which drops the focus of the keyboard user who
// pressed Space on it: once saved, the focus goes back to it (unless it has moved on meanwhile).
import '@mantine/core/styles/Switch.css';
import { Alert, Button, Group, Loader, Stack, Switch, Text, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { smsGatewayMachine } from '../../../../machines/admin/sms-gateway/sms-gateway.machine';
import { useFlowActor } from '../shared/use-flow-actor';
import { smsGatewayActors } from './admin.actors';
import { adminTexts } from './admin.texts';

const t = adminTexts.smsGateway;

export function SmsGatewayScreen() {
  const [snapshot, send] = useFlowActor(smsGatewayMachine, { input: undefined, actors: smsGatewayActors });
  const { available, wanted, saved, saveError, errorMessage } = snapshot.context;
  const saving = snapshot.matches('saving');
  const toggle = useRef<HTMLInputElement>(null);
  const hadFocus = useRef(false);
  useEffect(() => {
    if (saving || !hadFocus.current) return;
    hadFocus.current = false;
    if (document.activeElement === null || document.activeElement === document.body) toggle.current?.focus();
  }, [saving]);
  return (
    <Stack gap="md">
      <Title order={2} data-step-heading>
        {t.heading}
      </Title>
      <Text>{t.explanation}</Text>
      {snapshot.matches('loading') ? (
        <Loader size="sm" role="progressbar" aria-label={adminTexts.invitations.loading} />
      ) : snapshot.matches('failed') ? (
        <Stack gap="sm">
          <Alert color="red" role="alert" title={t.loadFailed}>
            {errorMessage}
          </Alert>
          <Group>
            <Button onClick={() => send({ type: 'user.retry' })}>{t.retry}</Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="sm">
          <Switch
            label={t.switchLabel}
            checked={saving ? (wanted ?? false) : (available ?? false)}
            ref={toggle}
            disabled={saving}
            onChange={(e) => {
              hadFocus.current = document.activeElement === e.currentTarget;
              send({ type: 'user.switch', available: e.currentTarget.checked });
            }}
          />
          <Text size="sm" data-testid="sms-gateway-state">
            {available ? t.on : t.off}
          </Text>
          {saved !== null && (
            <Text role="status" fw={600}>
              {t.saved(saved)}
            </Text>
          )}
          {saveError && (
            <Alert color="red" role="alert" title={t.saveFailed}>
              {saveError}
            </Alert>
          )}
        </Stack>
      )}
    </Stack>
  );
}
