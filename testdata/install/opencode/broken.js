export const MyPlugin = async () => ({})
