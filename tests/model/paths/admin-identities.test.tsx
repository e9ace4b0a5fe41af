// Generated path suites of the 'admin-identities' group (tests/model/harness/path-groups.ts).
import { runPathGroup } from '../harness/run-path-group';

runPathGroup('admin-identities');
