// The Mantine CSS the first page needs, per component rather than the whole bundle (the sign-in
// page budget is 170 KB gzip for JS and CSS together). Order matters: base layers first, then the
// components other components build on, then the rest. Pages loaded later import their own extras.
// default-css-variables.css is left out: MantineProvider writes every theme variable itself
// (deduplicateCssVariables={false}, in a style tag carrying the CSP nonce), which costs no bytes.
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/global.css';

import '@mantine/core/styles/UnstyledButton.css';
// Anchor is a Text: Text's rules must come first or they cancel Anchor's underline.
import '@mantine/core/styles/Text.css';
import '@mantine/core/styles/VisuallyHidden.css';
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Group.css';
import '@mantine/core/styles/Stack.css';
import '@mantine/core/styles/Loader.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/ActionIcon.css';

import '@mantine/core/styles/Anchor.css';
import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Center.css';
import '@mantine/core/styles/Container.css';
import '@mantine/core/styles/Image.css';
import '@mantine/core/styles/PasswordInput.css';
import '@mantine/core/styles/Title.css';

import './shell/shell.css';
