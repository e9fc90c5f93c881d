"""The few ``maya.api.OpenMaya`` names a scripted plug-in needs (stand-in)."""


class MObject:
    """An opaque handle, as Maya passes to ``initializePlugin``."""


class MFnPlugin:
    def __init__(self, mobject=None, vendor="Unknown", version="Unknown", apiVersion="Any"):
        if mobject is not None and not isinstance(mobject, MObject):
            raise TypeError("MFnPlugin needs the MObject Maya passed to the plug-in")
        self.vendor = vendor
        self.version = version


class MGlobal:
    @staticmethod
    def displayInfo(message):
        print(message, flush=True)

    @staticmethod
    def displayWarning(message):
        print(f"Warning: {message}", flush=True)

    @staticmethod
    def displayError(message):
        print(f"Error: {message}", flush=True)
