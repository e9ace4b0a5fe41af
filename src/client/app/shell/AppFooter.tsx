// Section 2.2's footer: a financial-advice disclaimer and links to the privacy statement and terms.
import { Anchor, Container, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { PRIVACY_STATEMENT_ROUTE, WEBSITE_TERMS_ROUTE } from '../routes';
import { shellTexts } from '../texts';

export function AppFooter() {
  return (
    <footer className="portal-footer">
      <Container size="lg">
        <Stack gap="xs">
          <Text size="sm" c="gray.7">
            {shellTexts.disclaimer}
          </Text>
          <Group component="nav" aria-label={shellTexts.footerNavigation} gap="lg">
            <Anchor component={Link} to={PRIVACY_STATEMENT_ROUTE} size="sm" underline="hover">
              {shellTexts.privacyStatement}
            </Anchor>
            <Anchor component={Link} to={WEBSITE_TERMS_ROUTE} size="sm" underline="hover">
              {shellTexts.websiteTerms}
            </Anchor>
          </Group>
        </Stack>
      </Container>
    </footer>
  );
}
