// The privacy statement and website terms (footer links, section 2.2).
import { Stack, Text, Title } from '@mantine/core';
import type { LegalDocument } from './legal.texts';

export function LegalPage({ document }: { document: LegalDocument }) {
  return (
    <Stack gap="md" maw={760}>
      <Title order={1}>{document.heading}</Title>
      <Text>{document.intro}</Text>
      {document.sections.map((section) => (
        <Stack component="section" gap="xs" key={section.heading}>
          <Title order={2} size="h3">
            {section.heading}
          </Title>
          {section.paragraphs.map((paragraph) => (
            <Text key={paragraph}>{paragraph}</Text>
          ))}
        </Stack>
      ))}
    </Stack>
  );
}
