// State-node config the flow machines write alike: a form submitted to a provided actor (a code,
// an answer, a password), a code (re)sent, and the unexpected failure of either. Each builder
// returns plain config that names its actions and guards ('isRefused', 'storeRefusal',
// 'reportFailure', ...); the machine places it in its own setup().createMachine, whose typing
// checks those names, their params and the actors' inputs and outputs as if written there.

import { failTo, outputOf } from './invoke-basics';

/** The resent toast ('Resent {type} verification code') of a machine whose action names the channel. */
export const resentToast = <const TChannel extends string>(channel: TChannel) =>
  ({ type: 'announceResent', params: { channel } }) as const;

export interface SubmittingOptions<
  TActor extends string,
  TInput,
  TDone extends readonly object[],
  TRefused extends readonly object[] = readonly [],
> {
  /** The sub-state's meta description. */
  description: string;
  /** The provided actor invoked (also the invoke's id). */
  actor: TActor;
  /** The invoke's input: what the form's event carries. */
  input: TInput;
  /** onDone after a refusal: where an accepted answer goes, in order. */
  done: TDone;
  /** onDone before the refusal back to the form: refusals that lead elsewhere, in order. */
  refused?: TRefused;
  /** The machine's failed state, '#<machine>.failed'. */
  failed: string;
}

/**
 * A sub-state beside its `form` that sends the form to `actor`:
 *   --done `refused`   --done[isRefused] / storeRefusal--> form    --done--> `done`
 *   --error / reportFailure--> `failed`
 */
export function submittingState<
  const TActor extends string,
  TInput,
  const TDone extends readonly object[],
  const TRefused extends readonly object[] = readonly [],
>({ description, actor, input, done, refused, failed }: SubmittingOptions<TActor, TInput, TDone, TRefused>) {
  return {
    meta: { description },
    invoke: {
      id: actor,
      src: actor,
      input,
      onDone: [
        ...((refused ?? []) as TRefused),
        {
          guard: { type: 'isRefused', params: outputOf },
          target: 'form',
          actions: { type: 'storeRefusal', params: outputOf },
        },
        ...done,
      ],
      onError: failTo(failed),
    },
  } as const;
}

export interface SendingCodeOptions<TActor extends string, TInput, TFallback extends readonly object[]> {
  /** The sub-state's meta description. */
  description: string;
  /** The provided actor that sends the code (also the invoke's id). */
  actor: TActor;
  /** The invoke's input, when the actor takes one (the channel); else undefined, as if not given. */
  input?: TInput;
  /** Between sent and refused: where an unavailable channel (503) goes instead. */
  fallback?: TFallback;
  /** The machine's failed state, '#<machine>.failed'. */
  failed: string;
}

const codeSendingState = <
  const TActor extends string,
  const TInput,
  const TFallback extends readonly object[],
  const TSent extends object,
>(
  { description, actor, input, fallback, failed }: SendingCodeOptions<TActor, TInput, TFallback>,
  sent: TSent,
) =>
  ({
    meta: { description },
    invoke: {
      id: actor,
      src: actor,
      input,
      onDone: [
        sent,
        ...(fallback ?? []),
        { target: 'form', actions: { type: 'storeResendRefusal', params: outputOf } },
      ],
      onError: failTo(failed),
    },
  }) as const;

const isSent = () => ({ guard: { type: 'isSent', params: outputOf }, target: 'form' }) as const;

/**
 * A sub-state beside its `form` that sends the first code (section 8):
 *   --done[isSent]--> form    --done `fallback` (SMS 503)-->
 *   --done / storeResendRefusal--> form (shown in red, the resend link disabled)
 *   --error / reportFailure--> `failed`
 */
export const sendingCodeState = <
  const TActor extends string,
  const TInput,
  const TFallback extends readonly object[],
>(
  options: SendingCodeOptions<TActor, TInput, TFallback>,
) => codeSendingState(options, isSent());

/** As sendingCodeState, for the resend link: a sent code runs `announce` (the resent toast). */
export const resendingCodeState = <
  const TActor extends string,
  const TInput,
  const TFallback extends readonly object[],
  const TAnnounce,
>({
  announce,
  ...options
}: SendingCodeOptions<TActor, TInput, TFallback> & {
  /** The action of a sent code: 'announceResent', or resentToast(channel). */
  announce: TAnnounce;
}) => codeSendingState(options, { ...isSent(), actions: announce });
