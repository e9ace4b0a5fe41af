// Generated path suites of the 'profile' group (tests/model/harness/path-groups.ts).
import { runPathGroup } from '../harness/run-path-group';

runPathGroup('profile');
