// Texts of the read-only personal details on /profile (section 2.3; editing arrives later).
export const profileTexts = {
  heading: 'Profile',
  personalDetails: 'Personal details',
  username: 'Username',
  name: 'Name',
  email: 'Email',
  mobile: 'Mobile',
  phone: 'Phone',
  dateOfBirth: 'Date of birth',
  salaryNumber: 'Salary number',
  password: 'Password',
  maskedPassword: '••••••••••',
  passwordHidden: 'hidden',
  notProvided: 'Not provided',
} as const;
