// Generated path suites of the 'merge' group (tests/model/harness/path-groups.ts).
import { runPathGroup } from '../harness/run-path-group';

runPathGroup('merge');
