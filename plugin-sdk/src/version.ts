/** The version of this SDK. A plugin declares the range it was built for in `definePlugin({ sdk })`. */
export const SDK_VERSION = '1.0.0';
