import { Text } from '@mantine/core';
import { StatusPage } from './StatusPage';
import { cookiesDisabledTexts } from './status.texts';

export default function CookiesDisabledPage() {
  return (
    <StatusPage heading={cookiesDisabledTexts.heading}>
      <Text>{cookiesDisabledTexts.body}</Text>
      <Text>{cookiesDisabledTexts.howTo}</Text>
    </StatusPage>
  );
}
