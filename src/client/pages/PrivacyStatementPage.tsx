import { LegalPage } from './LegalPage';
import { privacyStatement } from './legal.texts';

export default function PrivacyStatementPage() {
  return <LegalPage document={privacyStatement} />;
}
