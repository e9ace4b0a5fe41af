// The single-sign-on machine's actors over the api module: the only file of this flow that imports it.
import { fromPromise } from 'xstate';
import type { HandoffAttempt, HandoffCallInput } from '../../../../machines/handoff/handoff.types';
import type { AppCodeInput, AppName } from '../../../../machines/single-sign-on/single-sign-on.types';
import type { HandoffTarget } from '../../../contract/entities';
import { getApp, getHandoffTargets, ssoSamlHandoff } from '../../api';
import { handoffAttempt } from '../handoff/handoff.actors';
import { unlessAborted } from '../shared/actor-calls';

export const singleSignOnActors = {
  getHandoffTargets: fromPromise<HandoffTarget[], AppCodeInput>(({ input, signal }) =>
    unlessAborted(signal, (signal) => getHandoffTargets({ appCode: input.appCode }, { signal })),
  ),
  getApp: fromPromise<AppName, AppCodeInput>(({ input, signal }) =>
    unlessAborted(signal, async (signal) => {
      const app = await getApp({ appCode: input.appCode }, { signal });
      return { name: app.name };
    }),
  ),
  ssoSamlHandoff: fromPromise<HandoffAttempt, HandoffCallInput>(({ input, signal }) =>
    unlessAborted(signal, (signal) => handoffAttempt(() => ssoSamlHandoff(input, { signal }))),
  ),
};
