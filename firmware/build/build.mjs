// Placeholder: the firmware bundler lands with issue 4.
console.log("firmware: nothing to bundle yet");
