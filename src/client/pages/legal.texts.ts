// The privacy statement and website terms the footer links to (section 2.2).
export interface LegalSection {
  heading: string;
  paragraphs: readonly string[];
}

export interface LegalDocument {
  heading: string;
  intro: string;
  sections: readonly LegalSection[];
}

export const privacyStatement: LegalDocument = {
  heading: 'Privacy statement',
  intro:
    'This statement explains what personal information the identity portal collects when you sign in, ' +
    'manage your profile or hand off to another business application, and how that information is used.',
  sections: [
    {
      heading: 'What we collect',
      paragraphs: [
        'Your username, name, email address, mobile and phone numbers and date of birth, as held in your profile.',
        'Security information: a protected form of your password and security answers, the factors you use ' +
          'for multi-factor authentication, and the devices you chose to trust.',
        'Sign-in records: the time of each attempt, whether it succeeded, the IP address it came from and the ' +
          'approximate location that address points to.',
      ],
    },
    {
      heading: 'Why we collect it',
      paragraphs: [
        'To confirm who you are when you sign in, to protect your account against misuse, to show you when and ' +
          'where you last signed in, and to pass your identity to the applications you hand off to.',
      ],
    },
    {
      heading: 'Who we share it with',
      paragraphs: [
        'Only the business applications you choose to hand off to receive your identity, and only the details ' +
          'they need. We do not sell personal information.',
      ],
    },
    {
      heading: 'Cookies',
      paragraphs: [
        'The portal uses cookies that are needed to keep you signed in and to remember trusted devices. ' +
          'It does not use advertising cookies.',
      ],
    },
    {
      heading: 'Access and correction',
      paragraphs: [
        'You can see and change most of your details on your profile. If details that were verified in a branch ' +
          'are wrong, visit a branch to have them corrected.',
      ],
    },
  ],
};

export const websiteTerms: LegalDocument = {
  heading: 'Website terms',
  intro: 'These terms apply to your use of the identity portal. By using it you agree to them.',
  sections: [
    {
      heading: 'Your account',
      paragraphs: [
        'Keep your password, security answers and authentication devices to yourself. Tell us straight away ' +
          'if you think someone else has used your account.',
        'Sign out, or sign out of all devices from your profile, when you finish on a shared computer.',
      ],
    },
    {
      heading: 'Using the portal',
      paragraphs: [
        'Use the portal only to reach the applications you are entitled to, and do not try to get around its ' +
          'security. We may suspend access to protect you, other users or the bank.',
      ],
    },
    {
      heading: 'Information on this site',
      paragraphs: [
        'Information on this site is general in nature and is not financial advice. We take care to keep the ' +
          'portal available, but it may sometimes be unavailable for maintenance.',
      ],
    },
    {
      heading: 'Changes to these terms',
      paragraphs: ['We may change these terms. The version on this page is the one that applies.'],
    },
  ],
};
