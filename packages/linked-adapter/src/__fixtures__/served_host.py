"""A DCC started the kit's way: ``serve`` with a data folder, a transaction and an image."""

import json

from dcc_link import DATA_DIR_ENV, Transaction, encode_png, image_result, serve, wrote

shelf = []
marks = []


def handlers(folder):
    def add(params, call):
        shelf.append(params["name"])
        return list(shelf)

    def save(params, call):
        target = folder.check("path", params["path"])
        with open(target, "w", encoding="utf-8") as handle:
            json.dump(shelf, handle)
        return wrote(target)

    def picture(params, call):
        width = params["width"]
        return image_result(encode_png(width, 1, b"\xff\x00\x00" * width))

    return {
        "shop.add": add,
        "shop.save": save,
        "shop.picture": picture,
        "shop.fake_picture": lambda params, call: {"mimeType": "image/png", "data": "bm90IGEgcG5n"},
    }


def undo(label):
    del shelf[marks[-1]:]


transaction = Transaction(
    begin=lambda label: marks.append(len(shelf)),
    commit=lambda label: len(shelf) != marks[-1],
    undo=undo,
)
serve("served-commands.json", handlers, transaction=transaction, data_folder=DATA_DIR_ENV)
