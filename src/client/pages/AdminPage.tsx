// /admin/*: guarded now (admins only, else the admin target path is kept); the screens arrive with
// the admin issue.
import { Title } from '@mantine/core';
import { adminTexts } from './placeholder.texts';

export default function AdminPage() {
  return <Title order={1}>{adminTexts.heading}</Title>;
}
