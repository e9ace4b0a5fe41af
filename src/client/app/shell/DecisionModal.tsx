// A modal the user must answer with one of its buttons: no Esc, no backdrop, no close button (the
// 'Re-enter password' modal of section 2.2, and the idle warning). Its styles come with it.
import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Modal.css';
import '@mantine/core/styles/Overlay.css';
import '../style-nonce-global';
import { Modal } from '@mantine/core';
import type { ReactNode } from 'react';

export function DecisionModal({
  opened,
  title,
  children,
}: {
  opened: boolean;
  title: string;
  children: ReactNode;
}) {
  return (
    <Modal
      opened={opened}
      onClose={() => {}}
      title={title}
      closeOnEscape={false}
      closeOnClickOutside={false}
      withCloseButton={false}
      centered
    >
      {children}
    </Modal>
  );
}
