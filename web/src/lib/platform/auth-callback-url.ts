/** The deep link a native confirmation e-mail opens (the scheme is registered in native/android and native/ios). */
export const NATIVE_AUTH_CALLBACK = 'stridestake://auth/callback';
