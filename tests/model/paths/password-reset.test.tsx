// Generated path suites of the 'password-reset' group (tests/model/harness/path-groups.ts).
import { runPathGroup } from '../harness/run-path-group';

runPathGroup('password-reset');
