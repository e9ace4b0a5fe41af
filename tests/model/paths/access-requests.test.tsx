// Generated path suites of the 'access-requests' group (tests/model/harness/path-groups.ts).
import { runPathGroup } from '../harness/run-path-group';

runPathGroup('access-requests');
