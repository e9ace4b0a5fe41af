// Fuzzing (issue 11, security point 2) of the calls that anonymous visitors, the password reset and
// registration wizards and the forced sign-in steps reach; see support/fuzz.ts for the properties.
// The signed-in calls are in fuzz-signed-in.test.ts, so that vitest's two workers share the suite.
import { callerKindOf, fuzzSuite } from './support/fuzz';

fuzzSuite(
  'the anonymous, wizard and forced-step calls',
  (call) => !['customer', 'admin'].includes(callerKindOf(call)),
);
