import { LegalPage } from './LegalPage';
import { websiteTerms } from './legal.texts';

export default function WebsiteTermsPage() {
  return <LegalPage document={websiteTerms} />;
}
