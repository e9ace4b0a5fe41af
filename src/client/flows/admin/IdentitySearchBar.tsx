// Section 2.2's search bar in the admin's header: a search of identities (username, name, email,
// mobile, customer number) that goes to the results at /admin/identities?query=…. Part of the
// authenticated header's chunk, shown only to admins; self-contained (its texts and address here),
// so the admin screens' modules stay out of the header.
import { TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { ADMIN_ROUTE } from '../../app/routes';

export const identitySearchBarTexts = {
  label: 'Search identities',
  placeholder: 'Search identities',
} as const;

export function IdentitySearchBar() {
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = query.trim();
    void navigate(`${ADMIN_ROUTE}/identities${text ? `?${new URLSearchParams({ query: text })}` : ''}`);
    setQuery('');
  };
  return (
    <form role="search" aria-label={identitySearchBarTexts.label} onSubmit={submit}>
      <TextInput
        type="search"
        size="xs"
        aria-label={identitySearchBarTexts.label}
        placeholder={identitySearchBarTexts.placeholder}
        value={query}
        onChange={(event) => setQuery(event.currentTarget.value)}
        maxLength={200}
        w={220}
      />
    </form>
  );
}
