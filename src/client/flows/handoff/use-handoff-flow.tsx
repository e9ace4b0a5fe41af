// useHandoffFlow(): runs the handoff machine (machines/handoff) for a view that offers applications
// (the applications page, the header's grid). It gives the handler a click calls, the target being
// handed off to, and the hidden form to render while the response is posted.
import { VisuallyHidden } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useCallback, type ReactNode } from 'react';
import { handoffMachine } from '../../../../machines/handoff/handoff.machine';
import { selectBusyTarget, selectSamlPost } from '../../../../machines/handoff/handoff.select';
import type { HandoffTarget } from '../../../contract/entities';
import { useHandoffOverride, type HandoffHandler } from '../../app/handoff-context';
import { SamlPostForm } from '../shared/SamlPostForm';
import { useFlowActor } from '../shared/use-flow-actor';
import { announceRefusal } from './handoff.actions';
import { handoffActors } from './handoff.actors';
import { handoffTexts } from './handoff.texts';

export interface HandoffFlow {
  handoff: HandoffHandler;
  /** The target being handed off to, until the browser leaves (null when none is under way). */
  busyTarget: HandoffTarget | null;
  /** The hidden form posting the response; render it (null when nothing is posted). */
  postForm: ReactNode;
}

export function useHandoffFlow({ variant = 'page' }: { variant?: 'page' | 'hidden' } = {}): HandoffFlow {
  const override = useHandoffOverride();
  const [, send, actorRef] = useFlowActor(handoffMachine, {
    input: undefined,
    actors: handoffActors,
    actions: { announceRefusal },
  });
  const busyTarget = useSelector(actorRef, selectBusyTarget);
  const saml = useSelector(actorRef, selectSamlPost);
  const viaMachine = useCallback<HandoffHandler>((target) => send({ type: 'user.handoff', target }), [send]);

  // In the header the page stays as it is: the form is there, only its status is announced.
  const wrap = (form: ReactNode) => (variant === 'hidden' ? <VisuallyHidden>{form}</VisuallyHidden> : form);

  return {
    handoff: override ?? viaMachine,
    busyTarget,
    postForm:
      saml && busyTarget
        ? wrap(
            <SamlPostForm
              handoff={saml}
              label={handoffTexts.handingOff(busyTarget.appName)}
              continueLabel={handoffTexts.continueHandoff}
              onRestored={() => send({ type: 'page.restored' })}
              unfocusable={variant === 'hidden'}
            />,
          )
        : null,
  };
}
