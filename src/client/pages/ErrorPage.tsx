// /error (section 2.1): the message, trace id and timestamp the api layer stored, and the support
// email unless the portal runs inside a frame.
import '@mantine/core/styles/DataList.css';
import { Anchor, DataList, Text } from '@mantine/core';
import { useCallback } from 'react';
import { readErrorDetails } from '../app/error-details';
import { isInsideFrame } from '../app/frame';
import { formatDateTime } from '../app/format';
import { SIGN_IN_ROUTE } from '../app/routes';
import { useServices } from '../app/services';
import { useAsync } from '../app/use-async';
import { StatusPage } from './StatusPage';
import { errorTexts } from './status.texts';

function SupportEmail() {
  const services = useServices();
  const load = useCallback((signal: AbortSignal) => services.getSupportEmail({ signal }), [services]);
  const email = useAsync(load);
  if (email.status !== 'done' || !email.value) return null;
  return (
    <Text>
      {errorTexts.supportLead} <Anchor href={`mailto:${email.value}`}>{email.value}</Anchor>.
    </Text>
  );
}

export default function ErrorPage() {
  // Read at each render: a second failure while on /error replaces the details.
  const details = readErrorDetails();
  return (
    <StatusPage heading={errorTexts.heading} backFallback={SIGN_IN_ROUTE}>
      <Text>{errorTexts.unavailable}</Text>
      {details && (
        <DataList>
          <DataList.Item>
            <DataList.ItemLabel>{errorTexts.message}</DataList.ItemLabel>
            <DataList.ItemValue>{details.message}</DataList.ItemValue>
          </DataList.Item>
          {details.stackTraceHash && (
            <DataList.Item>
              <DataList.ItemLabel>{errorTexts.traceId}</DataList.ItemLabel>
              <DataList.ItemValue>{details.stackTraceHash}</DataList.ItemValue>
            </DataList.Item>
          )}
          {details.timestamp && (
            <DataList.Item>
              <DataList.ItemLabel>{errorTexts.timestamp}</DataList.ItemLabel>
              <DataList.ItemValue>
                <time dateTime={details.timestamp}>{formatDateTime(details.timestamp)}</time>
              </DataList.ItemValue>
            </DataList.Item>
          )}
        </DataList>
      )}
      {!isInsideFrame() && <SupportEmail />}
    </StatusPage>
  );
}
