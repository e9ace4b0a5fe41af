// Section 2.2: a back button that goes back within the app, or to a named route when the user has
// not navigated within the app (opened the page directly, or came from another site).
import { Button } from '@mantine/core';
import { useNavigate } from 'react-router-dom';
import { canGoBackWithinApp } from '../navigation';
import { shellTexts } from '../texts';

export interface BackButtonProps {
  /** Where to go when there is no in-app page to go back to (a route constant). */
  fallback: string;
  label?: string;
}

export function BackButton({ fallback, label = shellTexts.back }: BackButtonProps) {
  const navigate = useNavigate();
  return (
    <Button
      variant="default"
      onClick={() => {
        if (canGoBackWithinApp()) void navigate(-1);
        else void navigate(fallback);
      }}
    >
      {label}
    </Button>
  );
}
