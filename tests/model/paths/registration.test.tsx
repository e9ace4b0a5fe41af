// Generated path suites of the 'registration' group (tests/model/harness/path-groups.ts).
import { runPathGroup } from '../harness/run-path-group';

runPathGroup('registration');
